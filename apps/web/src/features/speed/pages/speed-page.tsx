import '../speed.css';
import { ThunderboltOutlined } from '@ant-design/icons';
import type { Locale } from '@leadrelay/shared';
import { Button, Card, Col, Empty, Row, Segmented, Skeleton, Statistic, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { errorMessage } from '../../../lib/errors';
import { formatNumber } from '../../../lib/format';
import { integrationPath } from '../../../lib/integrations/integration-path';
import { localePath } from '../../../lib/locale';
import { formatDuration, formatShare, useSpeedBreakdownQuery } from '../../../lib/reports/speed';
import { SpeedCharts } from '../components/speed-charts';
import { SpeedTable } from '../components/speed-table';

const PERIODS = [7, 30, 90] as const;

/** /admin/speed: speed to lead over a period, per day (charts), per source and per manager. */
export function SpeedPage() {
  const { t, i18n } = useTranslation('speed');
  const locale = i18n.language as Locale;
  const [days, setDays] = useState<number>(30);
  const query = useSpeedBreakdownQuery(days);
  const data = query.data;

  return (
    <div className="lr-page">
      <div className="lr-page-head">
        <Typography.Title level={2} className="lr-page-title">
          {t('title')}
        </Typography.Title>
        <Segmented
          aria-label={t('period.label')}
          value={days}
          onChange={(v) => setDays(Number(v))}
          options={PERIODS.map((n) => ({ value: n, label: t('period.days', { count: n }) }))}
        />
      </div>
      <Typography.Paragraph type="secondary">{t('intro')}</Typography.Paragraph>
      {query.isPending ? (
        <Card>
          <Skeleton active />
        </Card>
      ) : !data ? (
        <Card>
          <Empty description={errorMessage(query.error)}>
            <Button onClick={() => void query.refetch()}>{t('retry')}</Button>
          </Empty>
        </Card>
      ) : data.total.leads === 0 ? (
        <Card data-testid="speed-empty">
          <Empty
            className="lr-dashboard-empty"
            image={<ThunderboltOutlined aria-hidden className="lr-empty-icon" />}
            description={
              <>
                <Typography.Title level={4}>{t('empty.title')}</Typography.Title>
                <Typography.Paragraph type="secondary" className="lr-empty-text">
                  {t('empty.text')}
                </Typography.Paragraph>
              </>
            }
          >
            <Link to={localePath('/admin/integrations')}>
              <Button type="primary">{t('empty.action')}</Button>
            </Link>
          </Empty>
        </Card>
      ) : (
        <div className="lr-speed-stack">
          <Row gutter={[16, 16]} data-testid="speed-summary">
            <Col xs={12} lg={6}>
              <Card>
                <Statistic title={t('summary.median')} value={formatDuration(data.total.medianMs, locale)} />
              </Card>
            </Col>
            <Col xs={12} lg={6}>
              <Card>
                <Statistic title={t('summary.p90')} value={formatDuration(data.total.p90Ms, locale)} />
              </Card>
            </Col>
            <Col xs={12} lg={6}>
              <Card>
                <Statistic title={t('summary.within15')} value={formatShare(data.total.within['15'], locale)} />
              </Card>
            </Col>
            <Col xs={12} lg={6}>
              <Card>
                <Statistic
                  title={t('summary.neverTaken')}
                  value={formatNumber(data.total.neverTaken, locale)}
                  suffix={<span className="lr-speed-of">{t('summary.ofLeads', { count: data.total.leads })}</span>}
                />
              </Card>
            </Col>
          </Row>
          <SpeedCharts data={data} />
          <SpeedTable
            title={t('table.bySource')}
            nameTitle={t('table.source')}
            testId="speed-by-source"
            rows={data.byIntegration.map((r) => ({
              ...r,
              key: r.integration._id,
              label: (
                <Link to={integrationPath(r.integration)} className="lr-break">
                  {r.integration.name}
                </Link>
              ),
            }))}
          />
          <SpeedTable
            title={t('table.byManager')}
            nameTitle={t('table.manager')}
            testId="speed-by-manager"
            rows={data.byManager.map((r) => ({
              ...r,
              key: r.manager ?? '',
              label: r.manager ?? <Typography.Text type="secondary">{t('table.noManager')}</Typography.Text>,
            }))}
          />
        </div>
      )}
    </div>
  );
}
