import type { Locale } from '@leadrelay/shared';
import { Alert, Card, Input, Skeleton, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../lib/errors';
import { currentLocale, withLocale } from '../../../lib/locale';
import { useWidgetUrlQuery } from '../queries';

/** The panel opens in the language the link names: the English admin hands out the /en address. */
export function localisedUrl(url: string, locale: Locale): string {
  try {
    const u = new URL(url);
    u.pathname = withLocale(u.pathname, locale);
    return u.toString();
  } catch {
    return url;
  }
}

/** The link to paste into Pipedrive, with a copy button and the setup steps. */
export function WidgetUrlCard({ pipedriveId, ready }: { pipedriveId: string | undefined; ready: boolean }) {
  const { t } = useTranslation('widget');
  const query = useWidgetUrlQuery(pipedriveId, ready);
  const url = query.data ? localisedUrl(query.data.url, currentLocale()) : undefined;

  return (
    <Card title={t('admin.urlTitle')}>
      {!ready ? (
        <Typography.Paragraph type="secondary">{t('admin.urlPending')}</Typography.Paragraph>
      ) : query.isPending ? (
        <Skeleton active paragraph={{ rows: 1 }} />
      ) : query.isError ? (
        <Alert type="error" showIcon title={errorMessage(query.error)} />
      ) : (
        <>
          <Typography.Paragraph type="secondary">{t('admin.urlText')}</Typography.Paragraph>
          <div className="lr-widget-copy">
            <Input readOnly value={url} aria-label={t('admin.urlTitle')} className="lr-widget-mono" />
            <Typography.Text copyable={{ text: url, tooltips: [t('admin.copy'), t('admin.copied')] }} />
          </div>
        </>
      )}
      <Typography.Title level={5}>{t('admin.stepsTitle')}</Typography.Title>
      <ol className="lr-widget-steps">
        <li>{t('admin.step1')}</li>
        <li>{t('admin.step2')}</li>
        <li>{t('admin.step3')}</li>
      </ol>
    </Card>
  );
}
