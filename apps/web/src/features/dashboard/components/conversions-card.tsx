// The account's conversion events (issue 33): CRM stages sent back to the ad platforms in the last
// 30 days, with those waiting and failed now; shown only once the account has any.
import type { Locale } from '@leadrelay/shared';
import { Col, Row, Statistic, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { Panel } from '../../../components/panel';
import { CONVERSION_DAYS, useConversionStatisticQuery } from '../../../lib/conversions/queries';
import { formatNumber } from '../../../lib/format';

export function ConversionsCard() {
  const { t, i18n } = useTranslation('dashboard');
  const locale = i18n.language as Locale;
  const { token } = theme.useToken();
  const { data } = useConversionStatisticQuery();
  if (!data || data.sent + data.pending + data.failed === 0) return null;
  const n = (v: number) => formatNumber(v, locale);
  return (
    <Panel title={t('conversions.title')} data-testid="conversions-card">
      <Row gutter={[8, 8]}>
        <Col span={8}>
          <Statistic
            title={t('conversions.sent', { count: CONVERSION_DAYS })}
            value={data.sent}
            formatter={(v) => n(Number(v))}
          />
        </Col>
        <Col span={8}>
          <Statistic title={t('conversions.pending')} value={data.pending} formatter={(v) => n(Number(v))} />
        </Col>
        <Col span={8}>
          <Statistic
            title={t('conversions.failed')}
            value={data.failed}
            formatter={(v) => n(Number(v))}
            styles={{ content: data.failed > 0 ? { color: token.colorError } : undefined }}
          />
        </Col>
      </Row>
    </Panel>
  );
}
