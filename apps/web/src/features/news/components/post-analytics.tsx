import type { PostAnalytics } from '@leadrelay/shared';
import { Card, Segmented, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../lib/errors';
import { usePostAnalyticsQuery } from '../queries';

/** Staff: views of each post per day (Kyiv, the platform's zone; the card says so) over the last 7 or 30 days. */
export function PostAnalyticsCard() {
  const { t, i18n } = useTranslation('news');
  const [days, setDays] = useState(7);
  const stats = usePostAnalyticsQuery(days, true);
  const dayLabel = (day: string) =>
    new Intl.DateTimeFormat(i18n.language, { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(new Date(day));
  const data = stats.data;
  return (
    <Card title={t('analytics.title')}>
      <Segmented
        style={{ marginBottom: 12 }}
        value={days}
        onChange={(v) => setDays(Number(v))}
        options={[
          { value: 7, label: t('analytics.days', { count: 7 }) },
          { value: 30, label: t('analytics.days', { count: 30 }) },
        ]}
      />
      <Typography.Paragraph type="secondary">{t('analytics.zone')}</Typography.Paragraph>
      {stats.isError && <Typography.Text type="danger">{errorMessage(stats.error)}</Typography.Text>}
      <Table
        size="small"
        rowKey="_id"
        loading={stats.isPending}
        pagination={false}
        scroll={{ x: true }}
        locale={{ emptyText: t('empty') }}
        dataSource={data?.posts ?? []}
        columns={[
          {
            key: 'title',
            title: t('analytics.post'),
            fixed: 'left',
            width: 200,
            ellipsis: true,
            // The title in the page's language, as the list above shows it.
            render: (_: unknown, row: PostAnalytics['posts'][number]) => {
              const english = i18n.language === 'en' && row.titleEn !== null;
              return <span lang={english ? 'en' : 'uk'}>{english ? row.titleEn : row.title}</span>;
            },
          },
          { key: 'views', title: t('analytics.total'), dataIndex: 'views', width: 90, align: 'right' },
          ...(data?.days ?? []).map((day, i) => ({
            key: day,
            title: dayLabel(day),
            align: 'right' as const,
            width: 64,
            render: (_: unknown, row: PostAnalytics['posts'][number]) => row.perDay[i] || '·',
          })),
        ]}
      />
    </Card>
  );
}
