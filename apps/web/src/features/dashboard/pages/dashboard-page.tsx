import { Alert, Card, Col, Row, Spin, Typography } from 'antd';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { FullPageSpinner } from '../../../components/full-page-spinner';
import { HooksTable } from '../../../components/hooks/hooks-table';
import { useMe } from '../../../lib/current-user';
import { translateCode } from '../../../lib/errors';
import { greetingName } from '../../../lib/format';
import { useIntegrationsQuery } from '../../../lib/integrations/queries';
import { AccountStatusCard } from '../components/account-status-card';
import { HeldNotice } from '../components/held-notice';
import { HookCounters } from '../components/hook-counters';
import { IntegrationsHealth } from '../components/integrations-health';
import { LiveIndicator } from '../components/live-indicator';
import { NoIntegrations } from '../components/no-integrations';

// The chart library is a third of the dashboard's code: it loads after the page shows (issue 17 part 8).
const LeadsChart = lazy(() => import('../components/leads-chart').then((m) => ({ default: m.LeadsChart })));

export function DashboardPage() {
  const { t } = useTranslation('dashboard');
  const [params] = useSearchParams();
  const { data: user } = useMe();
  // One row is enough to know whether the account has any integration yet.
  const integrations = useIntegrationsQuery({ page: 1, limit: 1 });
  const error = params.get('error');
  if (!user) return <FullPageSpinner inline />;
  const isEmpty = integrations.data?.total === 0;

  return (
    <div className="lr-page">
      <div className="lr-page-head">
        <Typography.Title level={2} className="lr-page-title">
          {t('greeting', { name: greetingName(user) })}
        </Typography.Title>
        {!isEmpty && <LiveIndicator />}
      </div>
      <Typography.Paragraph type="secondary">{isEmpty ? t('subtitleEmpty') : t('subtitle')}</Typography.Paragraph>
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
              <AccountStatusCard user={user} />
            </div>
          </Col>
          <Col span={24}>
            <Card title={t('recent.title')} className="lr-recent">
              <HooksTable compact />
            </Card>
          </Col>
        </Row>
      )}
    </div>
  );
}

function ChartPlaceholder() {
  const { t } = useTranslation('dashboard');
  return (
    <Card title={t('chart.title')} className="lr-fill">
      <div className="lr-chart-placeholder">
        <Spin />
      </div>
    </Card>
  );
}
