import type { Locale, SpeedStat } from '@leadrelay/shared';
import { Card, Table } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { FigureCards } from '../../../components/figure-cards';
import { formatNumber } from '../../../lib/format';
import { formatDuration, formatShare } from '../../../lib/reports/speed';
import { useIsMobile } from '../../../lib/use-is-mobile';

export interface SpeedTableRow extends SpeedStat {
  key: string;
  label: ReactNode;
}

/** One dimension of the report (sources or managers): each row's own median, shares and leads never taken. */
export function SpeedTable({
  title,
  nameTitle,
  rows,
  testId,
}: {
  title: string;
  nameTitle: string;
  rows: SpeedTableRow[];
  testId: string;
}) {
  const { t, i18n } = useTranslation('speed');
  const locale = i18n.language as Locale;
  const columns: ColumnsType<SpeedTableRow> = [
    { key: 'name', title: nameTitle, dataIndex: 'label', fixed: 'left', width: 180 },
    { key: 'leads', title: t('table.leads'), align: 'right', render: (_, r) => formatNumber(r.leads, locale) },
    { key: 'median', title: t('table.median'), align: 'right', render: (_, r) => formatDuration(r.medianMs, locale) },
    { key: 'p90', title: t('table.p90'), align: 'right', render: (_, r) => formatDuration(r.p90Ms, locale) },
    ...(['5', '15', '60'] as const).map((m) => ({
      key: `w${m}`,
      title: t(`table.within${m}`),
      align: 'right' as const,
      render: (_: unknown, r: SpeedTableRow) => formatShare(r.within[m], locale),
    })),
    {
      key: 'never',
      title: t('table.neverTaken'),
      align: 'right',
      render: (_, r) => formatNumber(r.neverTaken, locale),
    },
  ];
  const mobile = useIsMobile();
  return (
    <Card title={title} data-testid={testId} className="lr-speed-table">
      {mobile ? (
        // A phone: a card per row; the table's columns squeezed "Медіана" until it broke mid-word.
        <FigureCards
          empty={t('chart.empty')}
          cards={rows.map((r) => ({
            key: r.key,
            head: <strong className="lr-break">{r.label}</strong>,
            figures: columns
              .filter((c) => c.key !== 'name')
              .map((c) => [String(c.title), (c.render as (v: unknown, r: SpeedTableRow) => ReactNode)(undefined, r)]),
          }))}
        />
      ) : (
        <Table<SpeedTableRow>
          size="small"
          rowKey="key"
          columns={columns}
          dataSource={rows}
          pagination={false}
          scroll={{ x: 720 }}
          locale={{ emptyText: t('chart.empty') }}
        />
      )}
    </Card>
  );
}
