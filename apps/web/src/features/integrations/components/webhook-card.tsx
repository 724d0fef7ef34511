import type { Integration } from '@leadrelay/shared';
import { Alert, Card, Input, Skeleton, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../lib/errors';
import { useWebhookUrlQuery } from '../../../lib/integrations/queries';

/** A shell-safe single-quoted string. */
const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export function curlExample(url: string, sample: string): string {
  return [`curl -X POST ${quote(url)} \\`, `  -H 'Content-Type: application/json' \\`, `  -d ${quote(sample)}`].join(
    '\n',
  );
}

/** The source's secret webhook URL with a copy button and a ready curl call carrying the preview sample. */
export function WebhookCard({ integration, sample }: { integration: Integration; sample: string }) {
  const { t } = useTranslation('integrations');
  const hook = useWebhookUrlQuery(integration._id, true);
  // The preview sample as typed (pretty JSON stays readable inside the single quotes).
  const body = sample.trim();

  return (
    <Card title={t('webhook.title')}>
      <Typography.Paragraph type="secondary">{t('webhook.text')}</Typography.Paragraph>
      {hook.isPending && <Skeleton active paragraph={{ rows: 2 }} />}
      {hook.isError && <Alert type="error" showIcon title={errorMessage(hook.error)} />}
      {hook.data && (
        <>
          <Typography.Text strong>{t('webhook.url')}</Typography.Text>
          <div className="lr-copy-row">
            <Input readOnly value={hook.data.url} aria-label={t('webhook.url')} className="lr-mono" />
            <Typography.Text
              copyable={{ text: hook.data.url, tooltips: [t('webhook.copy'), t('webhook.copied')] }}
              className="lr-copy-button"
            />
          </div>
          <Typography.Paragraph type="secondary" className="lr-hint">
            {t('webhook.secretHint')}
          </Typography.Paragraph>
          <div className="lr-code-head">
            <Typography.Text strong>{t('webhook.curl')}</Typography.Text>
            <Typography.Text
              copyable={{
                text: curlExample(hook.data.url, body),
                tooltips: [t('webhook.copy'), t('webhook.copied')],
              }}
            />
          </div>
          <pre className="lr-code">{curlExample(hook.data.url, body)}</pre>
          {!integration.active && <Alert type="warning" showIcon title={t('webhook.inactive')} />}
        </>
      )}
    </Card>
  );
}
