// The report's two charts per day: reaction time (median and 90th percentile, minutes) and the
// shares of leads reacted to within 5, 15 and 60 minutes. Recharts, as the dashboard's chart.
import type { Locale, SpeedToLeadBreakdown } from '@leadrelay/shared';
import { Card, Empty, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { intlLocale } from '../../../lib/format';
import { formatShare } from '../../../lib/reports/speed';
import { useIsMobile } from '../../../lib/use-is-mobile';

const HEIGHT = 260;
/** The legend in the order of the lines, not the alphabet of their names. */
const ORDER = ['median', 'p90', 'w5', 'w15', 'w60'];
const byOrder = (item: { dataKey?: unknown }) => ORDER.indexOf(String(item.dataKey));

const dayLabel = (day: string, locale: Locale, style: 'short' | 'long') =>
  new Intl.DateTimeFormat(
    intlLocale(locale),
    style === 'short'
      ? { day: 'numeric', month: 'short', timeZone: 'UTC' }
      : { weekday: 'short', day: 'numeric', month: 'long', timeZone: 'UTC' },
  ).format(new Date(`${day}T00:00:00Z`));

const minutes = (ms: number | null) => (ms === null ? null : Math.round((ms / 60_000) * 10) / 10);

export function SpeedCharts({ data }: { data: SpeedToLeadBreakdown }) {
  const { t, i18n } = useTranslation('speed');
  const locale = i18n.language as Locale;
  const { token } = theme.useToken();
  const compact = useIsMobile();
  const days = data.byDay.map((d) => ({
    day: d.day,
    median: minutes(d.medianMs),
    p90: minutes(d.p90Ms),
    w5: d.within['5'],
    w15: d.within['15'],
    w60: d.within['60'],
  }));
  const axis = {
    tick: { fontSize: 12, fill: token.colorTextSecondary },
    tickLine: false,
  };
  const xAxis = (
    <XAxis
      dataKey="day"
      tickFormatter={(d: string) => dayLabel(d, locale, 'short')}
      {...axis}
      axisLine={{ stroke: token.colorBorder }}
      minTickGap={compact ? 24 : 12}
    />
  );
  // Each series a line of the same look; a gap (a day nobody reacted) is bridged.
  const lines = (series: { key: string; name: string; color: string }[]) =>
    series.map((l) => (
      <Line
        key={l.key}
        dataKey={l.key}
        name={l.name}
        stroke={l.color}
        strokeWidth={2}
        connectNulls
        isAnimationActive={false}
      />
    ));
  // Days with no reaction at all draw bare axes: say what will appear there instead.
  const reacted = data.byDay.some((d) => d.medianMs !== null);
  const empty = (
    <Empty
      image={Empty.PRESENTED_IMAGE_SIMPLE}
      description={days.length === 0 ? t('chart.empty') : t('chart.noReactions')}
      data-testid="speed-chart-empty"
    />
  );
  return (
    <div className="lr-speed-charts">
      <Card title={t('chart.time')} data-testid="speed-time-chart">
        {!reacted ? (
          empty
        ) : (
          <ResponsiveContainer width="100%" height={HEIGHT}>
            <LineChart data={days} margin={{ top: 8, right: 8, bottom: 0, left: -12 }}>
              <CartesianGrid vertical={false} stroke={token.colorBorderSecondary} />
              {xAxis}
              <YAxis {...axis} axisLine={false} unit={` ${t('chart.minutes')}`} width={72} />
              <Tooltip
                labelFormatter={(d) => dayLabel(String(d), locale, 'long')}
                formatter={(v) =>
                  `${new Intl.NumberFormat(intlLocale(locale)).format(Number(v))} ${t('chart.minutes')}`
                }
              />
              <Legend iconType="circle" wrapperStyle={{ fontSize: 13 }} itemSorter={byOrder} />
              {lines([
                { key: 'median', name: t('chart.median'), color: token.colorPrimary },
                { key: 'p90', name: t('chart.p90'), color: token.colorWarning },
              ])}
            </LineChart>
          </ResponsiveContainer>
        )}
      </Card>
      <Card title={t('chart.share')} data-testid="speed-share-chart">
        {!reacted ? (
          empty
        ) : (
          <ResponsiveContainer width="100%" height={HEIGHT}>
            <LineChart data={days} margin={{ top: 8, right: 8, bottom: 0, left: -12 }}>
              <CartesianGrid vertical={false} stroke={token.colorBorderSecondary} />
              {xAxis}
              <YAxis
                {...axis}
                axisLine={false}
                domain={[0, 1]}
                tickFormatter={(v: number) => formatShare(v, locale)}
                width={56}
              />
              <Tooltip
                labelFormatter={(d) => dayLabel(String(d), locale, 'long')}
                formatter={(v) => formatShare(Number(v), locale)}
              />
              <Legend iconType="circle" wrapperStyle={{ fontSize: 13 }} itemSorter={byOrder} />
              {lines([
                { key: 'w5', name: t('chart.within5'), color: token.colorSuccess },
                { key: 'w15', name: t('chart.within15'), color: token.colorPrimary },
                { key: 'w60', name: t('chart.within60'), color: token.colorTextTertiary },
              ])}
            </LineChart>
          </ResponsiveContainer>
        )}
      </Card>
    </div>
  );
}
