import '../dashboard.css';
import { INTEGRATION_STATE_TONE, type Integration } from '@leadrelay/shared';
import { Alert, Skeleton } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { StatusTag } from '../../../components/integrations/status-tag';
import { Panel } from '../../../components/panel';
import { errorMessage } from '../../../lib/errors';
import { integrationPath } from '../../../lib/integrations/integration-path';
import { useAllIntegrationsQuery } from '../../../lib/integrations/queries';
import { localePath } from '../../../lib/locale';

const needsAttention = (i: Integration) => {
  const tone = INTEGRATION_STATE_TONE[i.state.code];
  return tone === 'warn' || tone === 'error';
};

/**
 * The account's integrations that do not work (or wait for the user), each with the status tag
 * the list and its page show; "all working" when none. Worst first: broken, then the rest.
 */
export function IntegrationsHealth() {
  const { t } = useTranslation('dashboard');
  const all = useAllIntegrationsQuery();
  const rows = (all.data ?? [])
    .filter(needsAttention)
    .sort(
      (a, b) =>
        Number(INTEGRATION_STATE_TONE[b.state.code] === 'error') -
        Number(INTEGRATION_STATE_TONE[a.state.code] === 'error'),
    );

  return (
    <Panel
      title={t('health.title')}
      extra={<Link to={localePath('/admin/integrations')}>{t('health.all')}</Link>}
      data-testid="integrations-health"
    >
      {all.isPending ? (
        <Skeleton active paragraph={{ rows: 2 }} />
      ) : all.isError ? (
        <Alert type="error" showIcon title={errorMessage(all.error)} />
      ) : rows.length === 0 ? (
        <span className="lr-text-secondary">{t('health.allWorking')}</span>
      ) : (
        <ul className="lr-health-list">
          {rows.map((i) => (
            <li key={i._id} className="lr-health-row" data-testid="health-row">
              <Link to={integrationPath(i)} className="lr-break">
                {i.name}
              </Link>
              <StatusTag integration={i} withReason={false} />
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}
