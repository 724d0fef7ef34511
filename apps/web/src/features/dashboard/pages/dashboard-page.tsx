import { Alert, Card, Col, Row, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { FullPageSpinner } from '../../../components/full-page-spinner';
import { HooksTable } from '../../../components/hooks/hooks-table';
import { useMe } from '../../../lib/current-user';
import { translateCode } from '../../../lib/errors';
import { useIntegrationsQuery } from '../../../lib/integrations/queries';
import { AccountStatusCard } from '../components/account-status-card';
import { HeldNotice } from '../components/held-notice';
import { HookCounters } from '../components/hook-counters';
import { IntegrationsHealth } from '../components/integrations-health';
import { LeadsChart } from '../components/leads-chart';
import { LiveIndicator } from '../components/live-indicator';
import { NoIntegrations } from '../components/no-integrations';

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
          {t('greeting', { name: user.name || user.login })}
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
            <LeadsChart />
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
