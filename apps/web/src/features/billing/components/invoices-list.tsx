import { DownloadOutlined } from '@ant-design/icons';
import type { Invoice, Locale } from '@leadrelay/shared';
import { Button, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { billingApi } from '../../../lib/billing/api';
import { useInvoicesQuery } from '../../../lib/billing/queries';
import { saveBlob } from '../../../lib/download';
import { errorMessage } from '../../../lib/errors';
import { formatDate, formatDay } from '../../../lib/format';
import { useApp } from '../../../lib/use-app';
import { BillingList } from './billing-list';
import { usePaging } from './paging';
import { InvoiceStatusTag } from './status-tags';

type Price = (amount: number, usdRate?: number | null) => string;

function useDownload() {
  const { t } = useTranslation('billing');
  const { message } = useApp();
  const [loading, setLoading] = useState<string | null>(null);
  const download = async (invoice: Invoice) => {
    setLoading(invoice._id);
    try {
      const { blob, filename } = await billingApi.invoicePdf(invoice._id);
      saveBlob(blob, filename ?? `${invoice.number}.pdf`);
    } catch (err) {
      void message.error(`${t('invoices.downloadFailed')}: ${errorMessage(err)}`);
    } finally {
      setLoading(null);
    }
  };
  return { download, loading };
}

/** Invoices, one per paid order: the number, the paid period, the amount and its PDF. */
export function InvoicesList({ price }: { price: Price }) {
  const { t, i18n } = useTranslation('billing');
  const paging = usePaging();
  const { page, limit } = paging;
  const query = useInvoicesQuery({ page, limit });
  const { download, loading } = useDownload();
  const data = query.data?.data ?? [];
  const total = query.data?.total ?? 0;
  const plan = (inv: Invoice) => inv.planTitle[i18n.language as Locale] ?? inv.planTitle.uk;
  // An invoice's hryvnias are at the rate of the day it was paid, printed on it too.
  const amount = (inv: Invoice) => (
    <>
      <span className="lr-billing-nowrap">{price(inv.amount, inv.usdRate)}</span>
      {inv.creditUsed > 0 && (
        <Typography.Text type="secondary" className="lr-billing-sub">
          {t('invoices.creditUsed', { amount: price(inv.creditUsed, inv.usdRate) })}
        </Typography.Text>
      )}
    </>
  );
  const range = (inv: Invoice) => `${formatDay(inv.periodFrom)} – ${formatDay(inv.periodTo)}`;
  const pdfButton = (inv: Invoice, withText: boolean) => (
    <Button
      size="small"
      icon={<DownloadOutlined aria-hidden />}
      loading={loading === inv._id}
      onClick={() => void download(inv)}
      aria-label={t('invoices.downloadFor', { number: inv.number })}
    >
      {withText ? t('invoices.download') : 'PDF'}
    </Button>
  );
  return (
    <BillingList<Invoice>
      title={t('invoices.title')}
      testId="invoices"
      totalLabel={t('invoices.total', { count: total })}
      emptyText={t('invoices.empty')}
      query={query}
      data={data}
      total={total}
      paging={paging}
      card={(inv) => (
        <>
          <div className="lr-billing-item-head">
            <Typography.Text strong>{inv.number}</Typography.Text>
            <InvoiceStatusTag status={inv.status} />
          </div>
          <Typography.Text>
            {plan(inv)}, {t(`period.${inv.period}`)}
          </Typography.Text>
          <Typography.Text type="secondary">{range(inv)}</Typography.Text>
          <div className="lr-billing-item-foot">
            <div className="lr-billing-item-amount">{amount(inv)}</div>
            {pdfButton(inv, true)}
          </div>
          <Typography.Text type="secondary" className="lr-billing-sub">
            {t('invoices.date')}: {formatDate(inv.issuedAt)}
          </Typography.Text>
        </>
      )}
      columns={[
        {
          title: t('invoices.number'),
          dataIndex: 'number',
          render: (n: string) => <span className="lr-billing-nowrap">{n}</span>,
        },
        { title: t('invoices.date'), dataIndex: 'issuedAt', render: (iso: string) => formatDate(iso) },
        {
          title: t('invoices.period'),
          key: 'period',
          render: (_v, inv) => (
            <>
              {plan(inv)}, {t(`period.${inv.period}`)}
              <Typography.Text type="secondary" className="lr-billing-sub">
                {range(inv)}
              </Typography.Text>
            </>
          ),
        },
        { title: t('invoices.amount'), key: 'amount', align: 'right', render: (_v, inv) => amount(inv) },
        {
          title: t('invoices.status'),
          dataIndex: 'status',
          render: (s: Invoice['status']) => <InvoiceStatusTag status={s} />,
        },
        { title: t('invoices.pdf'), key: 'pdf', align: 'center', render: (_v, inv) => pdfButton(inv, false) },
      ]}
    />
  );
}
