import type { Locale, ReconciliationRow } from '@leadrelay/shared';
import { Card, Segmented, Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { FigureCards } from '../../../components/figure-cards';
import { formatNumber, intlLocale } from '../../../lib/format';
import { integrationPath } from '../../../lib/integrations/integration-path';
import { useIsMobile } from '../../../lib/use-is-mobile';
import { useReconciliationQuery } from '../queries';

const PERIODS = [7, 14, 31] as const;

/** "вт, 24 лист." / "Tue, 24 Nov": a day (the account's zone) of the last month, short enough for a phone. */
const dayLabel = (day: string, locale: Locale) =>
  new Intl.DateTimeFormat(intlLocale(locale), {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    timeZone: 'UTC',
  }).format(new Date(`${day}T00:00:00Z`));

/** The lead log of a source filtered to what was not delivered (its leads tab). */
const failedLink = (r: ReconciliationRow) => {
  const path = integrationPath(r.integration);
  return r.integration.type === 'parser' ? `${path}?status=failed` : `${path}?tab=leads&status=failed`;
};

/** Per source and day (the account's zone): received, delivered, held, not delivered (a link to those), in progress. */
export function ReconciliationCard() {
  const { t, i18n } = useTranslation('guardian');
  const { t: ts } = useTranslation('speed');
  const locale = i18n.language as Locale;
  const [days, setDays] = useState<number>(7);
  const query = useReconciliationQuery(days);
  const n = (v: number) => formatNumber(v, locale);
  const mobile = useIsMobile();
  const failedCount = (r: ReconciliationRow) =>
    r.failed > 0 ? (
      <Link
        to={failedLink(r)}
        aria-label={t('reconciliation.openFailed', { name: r.integration.name })}
        className="lr-guardian-failed"
      >
        <Typography.Text type="danger">{n(r.failed)}</Typography.Text>
      </Link>
    ) : (
      n(0)
    );
  const columns: ColumnsType<ReconciliationRow> = [
    {
      key: 'day',
      title: t('reconciliation.day'),
      render: (_, r) => dayLabel(r.day, locale),
      width: 120,
      fixed: 'left',
    },
    {
      key: 'source',
      title: t('reconciliation.source'),
      render: (_, r) => (
        <Link to={integrationPath(r.integration)} className="lr-break">
          {r.integration.name}
        </Link>
      ),
    },
    { key: 'received', title: t('reconciliation.received'), align: 'right', render: (_, r) => n(r.received) },
    { key: 'delivered', title: t('reconciliation.delivered'), align: 'right', render: (_, r) => n(r.delivered) },
    { key: 'held', title: t('reconciliation.held'), align: 'right', render: (_, r) => n(r.held) },
    {
      key: 'failed',
      title: t('reconciliation.failed'),
      align: 'right',
      render: (_, r) => failedCount(r),
    },
    { key: 'other', title: t('reconciliation.other'), align: 'right', render: (_, r) => n(r.other) },
  ];
  return (
    <Card
      title={t('reconciliation.title')}
      className="lr-guardian-table"
      data-testid="guardian-reconciliation"
      extra={
        <Segmented
          size="small"
          value={days}
          onChange={(v) => setDays(Number(v))}
          options={PERIODS.map((d) => ({ value: d, label: ts('period.days', { count: d }) }))}
        />
      }
    >
      <Typography.Paragraph type="secondary" className="lr-guardian-hint">
        {t('reconciliation.hint')}
      </Typography.Paragraph>
      {mobile ? (
        // A phone: a card per day and source, every figure in sight (a table would be cut at the edge).
        <FigureCards
          busy={query.isPending}
          empty={t('reconciliation.empty')}
          cards={(query.data?.rows ?? []).map((r) => ({
            key: `${r.day}:${r.integration._id}`,
            head: (
              <>
                <Typography.Text strong>{dayLabel(r.day, locale)}</Typography.Text>
                <Link to={integrationPath(r.integration)} className="lr-break">
                  {r.integration.name}
                </Link>
              </>
            ),
            figures: [
              [t('reconciliation.received'), n(r.received)],
              [t('reconciliation.delivered'), n(r.delivered)],
              [t('reconciliation.held'), n(r.held)],
              [t('reconciliation.failed'), failedCount(r)],
              [t('reconciliation.other'), n(r.other)],
            ],
          }))}
        />
      ) : (
        <Table<ReconciliationRow>
          size="small"
          rowKey={(r) => `${r.day}:${r.integration._id}`}
          columns={columns}
          dataSource={query.data?.rows ?? []}
          loading={query.isPending}
          pagination={false}
          scroll={{ x: 720 }}
          locale={{ emptyText: t('reconciliation.empty') }}
        />
      )}
    </Card>
  );
}
