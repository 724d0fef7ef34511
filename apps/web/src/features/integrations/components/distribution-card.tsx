import type { Integration } from '@leadrelay/shared';
import { Card, Divider, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { NO_COLLECTION, useDistributionChoice } from '../../../lib/integrations/use-distribution-choice';
import { localePath } from '../../../lib/locale';
import { RoutingSettings } from './routing-settings';

/**
 * The collection whose users get this source's leads in turn (round-robin), or none; with one, what
 * happens when nobody is on duty and when an untaken lead passes on (issue 19).
 */
export function DistributionCard({ integration }: { integration: Integration }) {
  const { t } = useTranslation('integrations');
  const { collections, chosen, choose, busy, value } = useDistributionChoice(integration);

  return (
    <Card title={t('distribution.title')}>
      <Typography.Paragraph type="secondary" className="lr-hint">
        {t('distribution.hint')}
      </Typography.Paragraph>
      <Select
        value={value}
        onChange={choose}
        loading={busy}
        aria-label={t('distribution.title')}
        className="lr-full"
        options={[
          { value: NO_COLLECTION, label: t('distribution.none') },
          ...collections.map((c) => ({
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
