import type { Integration } from '@leadrelay/shared';
import { Card, Divider, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { errorMessage } from '../../../lib/errors';
import { useCollectionsQuery, useUpdateIntegrationMutation } from '../../../lib/integrations/queries';
import { localePath } from '../../../lib/locale';
import { useApp } from '../../../lib/use-app';
import { RoutingSettings } from './routing-settings';

const NONE = '';

/**
 * The collection whose users get this source's leads in turn (round-robin), or none; with one, what
 * happens when nobody is on duty and when an untaken lead passes on (issue 19).
 */
export function DistributionCard({ integration }: { integration: Integration }) {
  const { t } = useTranslation('integrations');
  const { t: tc } = useTranslation('common');
  const { message } = useApp();
  const collections = useCollectionsQuery();
  const update = useUpdateIntegrationMutation();
  const chosen = collections.data?.data.find((c) => c._id === integration.distributionId);

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
      {chosen && (
        <>
          <Divider className="lr-divider" />
          {/* Keyed by the collection: a new one starts from the stored policy again. */}
          <RoutingSettings key={chosen._id} integration={integration} items={chosen.items} />
        </>
      )}
    </Card>
  );
}
