import type { Locale } from '@leadrelay/shared';
import { Col, Row, Statistic, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { Panel } from '../../../components/panel';
import { formatNumber } from '../../../lib/format';
import { useHookTotalQuery } from '../../../lib/hooks/queries';

/** At least this wide, growing to share the row: 4 or 5 in a row on a desktop, 2 on a phone. */
const COUNTER_FLEX = '1 1 150px';

/**
 * Delivered / failed / pending large (and held, while the account has held leads); received with
 * filtered and duplicates beside it. The cards share the row and wrap two to a row on a phone.
 */
export function HookCounters() {
  const { t, i18n } = useTranslation('dashboard');
  const { token } = theme.useToken();
  const totals = useHookTotalQuery();
  const locale = i18n.language as Locale;
  const loading = totals.isPending;
  const n = (v: number | undefined) => formatNumber(v ?? 0, locale);
  const counters = [
    { key: 'delivered', color: token.colorSuccess, value: totals.data?.delivered },
    { key: 'failed', color: token.colorError, value: totals.data?.failed },
    { key: 'pending', color: token.colorWarning, value: totals.data?.pending },
    ...(totals.data?.held ? [{ key: 'held', color: token.volcano, value: totals.data.held } as const] : []),
  ] as const;

  return (
    <Row gutter={[16, 16]} className="lr-counters">
      {counters.map((c) => (
        <Col flex={COUNTER_FLEX} key={c.key}>
          <Panel size="small" className="lr-counter" data-testid={`counter-${c.key}`}>
            <Statistic
              title={t(`counters.${c.key}`)}
              value={c.value ?? 0}
              formatter={(v) => n(Number(v))}
              loading={loading}
              // A zero is nothing to signal: no red for no failures.
              styles={{ content: { color: (c.value ?? 0) > 0 ? c.color : undefined } }}
            />
          </Panel>
        </Col>
      ))}
      <Col flex={COUNTER_FLEX}>
        <Panel size="small" className="lr-counter" data-testid="counter-received">
          <Statistic
            title={t('counters.received')}
            value={totals.data?.total ?? 0}
            formatter={(v) => n(Number(v))}
            loading={loading}
          />
          {!loading && (
            <span className="lr-text-secondary lr-counter-extra">
              {t('counters.filtered', { value: n(totals.data?.filtered) })}
              {' · '}
              {t('counters.duplicate', { value: n(totals.data?.duplicate) })}
            </span>
          )}
        </Panel>
      </Col>
    </Row>
  );
}
