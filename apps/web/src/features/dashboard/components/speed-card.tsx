// The dashboard's compact speed to lead (issue 19 part 2): last 7 days' median, the share within
// 15 minutes and the leads never taken, with a link to the report. Loaded after the page shows.
import type { Locale } from '@leadrelay/shared';
import { Col, Row, Skeleton, Statistic } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Panel } from '../../../components/panel';
import { formatNumber } from '../../../lib/format';
import { localePath } from '../../../lib/locale';
import { formatDuration, formatShare, useSpeedBreakdownQuery } from '../../../lib/reports/speed';

export function SpeedCard() {
  const { t, i18n } = useTranslation('dashboard');
  const locale = i18n.language as Locale;
  const query = useSpeedBreakdownQuery(7);
  const total = query.data?.total;
  return (
    <Panel
      title={t('speed.title')}
      extra={<Link to={localePath('/admin/speed')}>{t('speed.open')}</Link>}
      data-testid="speed-card"
    >
      {!total ? (
        <Skeleton active paragraph={{ rows: 1 }} />
      ) : total.reacted === 0 ? (
        <span className="lr-text-secondary">{t('speed.empty')}</span>
      ) : (
        <Row gutter={[8, 8]}>
          <Col span={8}>
            <Statistic title={t('speed.median')} value={formatDuration(total.medianMs, locale)} />
          </Col>
          <Col span={8}>
            <Statistic title={t('speed.within15')} value={formatShare(total.within['15'], locale)} />
          </Col>
          <Col span={8}>
            <Statistic title={t('speed.neverTaken')} value={formatNumber(total.neverTaken, locale)} />
          </Col>
        </Row>
      )}
    </Panel>
  );
}
