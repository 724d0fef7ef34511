import type { Integration } from '@leadrelay/shared';
import { Card, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { errorMessage } from '../../../lib/errors';
import { useCollectionsQuery, useUpdateIntegrationMutation } from '../../../lib/integrations/queries';
import { localePath } from '../../../lib/locale';
import { useApp } from '../../../lib/use-app';

const NONE = '';

/** The collection whose users get this source's leads in turn (round-robin), or none. */
export function DistributionCard({ integration }: { integration: Integration }) {
  const { t } = useTranslation('integrations');
  const { t: tc } = useTranslation('common');
  const { message } = useApp();
  const collections = useCollectionsQuery();
  const update = useUpdateIntegrationMutation();

  const onChange = async (value: string) => {
    try {
      await update.mutateAsync({ id: integration._id, body: { distributionId: value === NONE ? null : value } });
      void message.success(tc('saved'));
    } catch (err) {
      void message.error(errorMessage(err));
    }
  };

  return (
    <Card title={t('distribution.title')}>
      <Typography.Paragraph type="secondary" className="lr-hint">
        {t('distribution.hint')}
      </Typography.Paragraph>
      <Select
        value={integration.distributionId ?? NONE}
        onChange={onChange}
        loading={collections.isPending || update.isPending}
        aria-label={t('distribution.title')}
        className="lr-full"
        options={[
          { value: NONE, label: t('distribution.none') },
          ...(collections.data?.data ?? []).map((c) => ({
            value: c._id,
            label: `${c.name} · ${t('distribution.people', { count: c.items.length })}`,
          })),
        ]}
      />
      <Typography.Paragraph className="lr-hint lr-mt">
        <Link to={localePath('/admin/collections')}>{t('distribution.manage')}</Link>
      </Typography.Paragraph>
    </Card>
  );
}
