import { DEFAULT_TIME_ZONE, type Locale } from '@leadrelay/shared';
import { Empty, Spin, theme } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { Panel } from '../../../components/panel';
import { useMe } from '../../../lib/current-user';
import { formatNumber } from '../../../lib/format';
import { useStatisticQuery } from '../../../lib/hooks/queries';
import { useIsMobile } from '../../../lib/use-is-mobile';
import { CHART_DAYS, chartNote, fillDays, formatDay } from '../chart-data';

const SERIES = ['delivered', 'failed', 'pending', 'held'] as const;
const HEIGHT = 280;

/** Leads per day for the last 14 days in the account's time zone, stacked by outcome; empty days are zero bars. */
export function LeadsChart({ now }: { now?: Date }) {
  const { t, i18n } = useTranslation('dashboard');
  const { token } = theme.useToken();
  const locale = i18n.language as Locale;
  const compact = useIsMobile();
  const statistic = useStatisticQuery({ page: 1, limit: CHART_DAYS });
  const zone = useMe().data?.timeZone ?? DEFAULT_TIME_ZONE;
  const days = useMemo(() => fillDays(statistic.data?.data ?? [], zone, now), [statistic.data, zone, now]);
  const colors = {
    delivered: token.colorSuccess,
    failed: token.colorError,
    pending: token.colorWarning,
    held: token.volcano,
  };
  const note = chartNote(days);

  return (
    <Panel title={t('chart.title')} className="lr-fill lr-leads-chart" data-testid="leads-chart">
      {statistic.isPending ? (
        <div className="lr-chart-placeholder">
          <Spin />
        </div>
      ) : (
        <>
          <div className="lr-chart" aria-hidden="true">
            {note && (
              <Empty className="lr-chart-empty" image={Empty.PRESENTED_IMAGE_SIMPLE} description={t(`chart.${note}`)} />
            )}
            {/* As tall as the card, which the column beside it may make taller than HEIGHT: no blank under the chart. */}
            <ResponsiveContainer width="100%" height="100%" minHeight={HEIGHT}>
              <BarChart data={days} margin={{ top: 8, right: 8, bottom: 0, left: -16 }}>
                <CartesianGrid vertical={false} stroke={token.colorBorderSecondary} />
                <XAxis
                  dataKey="day"
                  tickFormatter={(d: string) => formatDay(d, locale, compact ? 'numeric' : 'short')}
                  tick={{ fontSize: 12, fill: token.colorTextSecondary }}
                  tickLine={false}
                  axisLine={{ stroke: token.colorBorder }}
                  minTickGap={20}
                />
                <YAxis
                  allowDecimals={false}
                  tickFormatter={(v: number) => formatNumber(v, locale)}
                  tick={{ fontSize: 12, fill: token.colorTextSecondary }}
                  tickLine={false}
                  axisLine={false}
                />
                <Tooltip
                  labelFormatter={(d) => formatDay(String(d), locale, 'long')}
                  formatter={(v) => formatNumber(Number(v), locale)}
                  cursor={{ fill: token.colorFillTertiary }}
                />
                <Legend
                  iconType="circle"
                  wrapperStyle={{ fontSize: 13 }}
                  itemSorter={(item) => SERIES.indexOf(item.dataKey as (typeof SERIES)[number])}
                />
                {SERIES.map((key) => (
                  <Bar
                    key={key}
                    dataKey={key}
                    name={t(`counters.${key}`)}
                    stackId="leads"
                    fill={colors[key]}
                    maxBarSize={36}
                    isAnimationActive={false}
                  />
                ))}
              </BarChart>
            </ResponsiveContainer>
          </div>
          {/* The same figures for screen readers. */}
          <div className="lr-sr-only">
            <table data-testid="leads-chart-table">
              <caption>{t('chart.title')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('chart.day')}</th>
                  {SERIES.map((key) => (
                    <th scope="col" key={key}>
                      {t(`counters.${key}`)}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {days.map((d) => (
                  <tr key={d.day}>
                    <th scope="row">{formatDay(d.day, locale, 'long')}</th>
                    {SERIES.map((key) => (
                      <td key={key}>{formatNumber(d[key], locale)}</td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </Panel>
  );
}
