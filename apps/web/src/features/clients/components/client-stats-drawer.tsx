import type { Client } from '@leadrelay/shared';
import { Descriptions, Drawer, Empty, Spin, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { ServerError } from '../../../components/server-error';
import { formatDateTime, formatDay, formatNumber, intlLocale } from '../../../lib/format';
import { useIsMobile } from '../../../lib/use-is-mobile';
import { useClientStatisticQuery } from '../queries';

const shortDay = (day: string) =>
  new Intl.DateTimeFormat(intlLocale(), { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(
    new Date(`${day}T00:00:00Z`),
  );

/** One account's last 30 days: leads per day (a chart), integrations, delivery success, last activity. */
export function ClientStatistic({ id }: { id: string }) {
  const { t } = useTranslation('clients');
  const query = useClientStatisticQuery(id);
  if (query.isPending) return <Spin />;
  if (query.isError) return <ServerError error={query.error} />;
  const stat = query.data;
  const rate = stat.deliveries.successRate;
  return (
    <>
      <Typography.Title level={5}>{t('stats.leadsPerDay', { count: stat.leadsTotal })}</Typography.Title>
      <div className="lr-client-chart" data-testid="client-chart">
        {stat.leadsTotal === 0 ? (
          <Empty description={t('stats.noLeads')} image={Empty.PRESENTED_IMAGE_SIMPLE} />
        ) : (
          <ResponsiveContainer width="100%" height={200}>
            <BarChart data={stat.leadsPerDay} margin={{ top: 8, right: 20, bottom: 0, left: -24 }}>
              <CartesianGrid strokeDasharray="3 3" vertical={false} />
              <XAxis dataKey="date" tickFormatter={(d: string) => shortDay(d)} fontSize={11} minTickGap={16} />
              <YAxis allowDecimals={false} fontSize={11} />
              <Tooltip labelFormatter={(d) => formatDay(String(d))} formatter={(v) => [v, t('stats.leads')]} />
              <Bar dataKey="count" fill="var(--lr-primary, #1677ff)" />
            </BarChart>
          </ResponsiveContainer>
        )}
      </div>
      <Descriptions column={1} size="small" bordered className="lr-client-stats">
        <Descriptions.Item label={t('stats.integrations')}>
          {t('stats.integrationsValue', {
            total: stat.integrations.total,
            active: stat.integrations.active,
            broken: stat.integrations.broken,
          })}
        </Descriptions.Item>
        <Descriptions.Item label={t('stats.successRate')}>
          {rate === null ? t('stats.noDeliveries') : `${formatNumber(rate)} %`}
          <Typography.Text type="secondary">
            {' '}
            {t('stats.deliveriesValue', {
              delivered: stat.deliveries.delivered,
              failed: stat.deliveries.failed,
              pending: stat.deliveries.pending,
            })}
          </Typography.Text>
        </Descriptions.Item>
        <Descriptions.Item label={t('stats.lastActivity')}>
          {stat.lastActivity ? formatDateTime(stat.lastActivity) : t('stats.never')}
        </Descriptions.Item>
      </Descriptions>
    </>
  );
}

export function ClientStatsDrawer({ client, onClose }: { client: Client | null; onClose: () => void }) {
  const { t } = useTranslation('clients');
  const mobile = useIsMobile();
  return (
    <Drawer
      open={Boolean(client)}
      onClose={onClose}
      size={mobile ? '100%' : 640}
      title={client ? t('stats.title', { login: client.login }) : ''}
      destroyOnHidden
    >
      {client && <ClientStatistic id={client._id} />}
    </Drawer>
  );
}
