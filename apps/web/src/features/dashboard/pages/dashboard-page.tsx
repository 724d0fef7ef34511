import { Alert, Col, Row, Skeleton, Spin } from 'antd';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { FullPageSpinner } from '../../../components/full-page-spinner';
import { Panel } from '../../../components/panel';
import { useMe } from '../../../lib/current-user';
import { translateCode } from '../../../lib/errors';
import { greetingName } from '../../../lib/format';
import { RECENT_HOOKS, useHooksQuery } from '../../../lib/hooks/queries';
import { useIntegrationsQuery } from '../../../lib/integrations/queries';
import { AccountStatusCard } from '../components/account-status-card';
import { ConversionsCard } from '../components/conversions-card';
import { HeldNotice } from '../components/held-notice';
import { HookCounters } from '../components/hook-counters';
import { IntegrationsHealth } from '../components/integrations-health';
import { LiveIndicator } from '../components/live-indicator';
import { NoIntegrations } from '../components/no-integrations';

// The chart library is a third of the dashboard's code: it loads after the page shows (issue 17 part 8).
const LeadsChart = lazy(() => import('../components/leads-chart').then((m) => ({ default: m.LeadsChart })));
// So is the recent leads' table (antd's Table with its pagination, select and checkbox: some 80 KB);
// the page asks for the leads themselves at once, so they arrive with it.
// And the speed-to-lead card (issue 19): its report's code and query come after the page shows.
const SpeedCard = lazy(() => import('../components/speed-card').then((m) => ({ default: m.SpeedCard })));
const HooksTable = lazy(() => import('../../../components/hooks/hooks-table').then((m) => ({ default: m.HooksTable })));

export function DashboardPage() {
  const { t } = useTranslation('dashboard');
  const [params] = useSearchParams();
  const { data: user } = useMe();
  // One row is enough to know whether the account has any integration yet.
  const integrations = useIntegrationsQuery({ page: 1, limit: 1 });
  useHooksQuery(RECENT_HOOKS);
  const error = params.get('error');
  if (!user) return <FullPageSpinner inline />;
  const isEmpty = integrations.data?.total === 0;

  return (
    <div className="lr-page">
      <div className="lr-page-head">
        <h2 className="lr-heading lr-page-title">{t('greeting', { name: greetingName(user) })}</h2>
        {!isEmpty && <LiveIndicator />}
      </div>
      <p className="lr-paragraph lr-text-secondary">{isEmpty ? t('subtitleEmpty') : t('subtitle')}</p>
      {error && <Alert className="lr-mb" type="error" showIcon role="alert" title={translateCode(error)} />}
      <HeldNotice />
      {isEmpty ? (
        <Row gutter={[16, 16]}>
          <Col xs={24} lg={9}>
            <AccountStatusCard user={user} />
          </Col>
          <Col xs={24} lg={15}>
            <NoIntegrations />
          </Col>
        </Row>
      ) : (
        <Row gutter={[16, 16]}>
          <Col span={24}>
            <HookCounters />
          </Col>
          <Col xs={24} lg={15}>
            <Suspense fallback={<ChartPlaceholder />}>
              <LeadsChart />
            </Suspense>
          </Col>
          <Col xs={24} lg={9}>
            <div className="lr-stack">
              <IntegrationsHealth />
              <Suspense fallback={null}>
                <SpeedCard />
              </Suspense>
              <ConversionsCard />
              <AccountStatusCard user={user} />
            </div>
          </Col>
          <Col span={24}>
            <Panel title={t('recent.title')} className="lr-recent">
              <Suspense fallback={<Skeleton active paragraph={{ rows: 4 }} />}>
                <HooksTable compact />
              </Suspense>
            </Panel>
          </Col>
        </Row>
      )}
    </div>
  );
}

function ChartPlaceholder() {
  const { t } = useTranslation('dashboard');
  return (
    <Panel title={t('chart.title')} className="lr-fill">
      <div className="lr-chart-placeholder">
        <Spin />
      </div>
    </Panel>
  );
}
