import type { RecordColumn, RecordsCard } from '@leadrelay/connectors/manifest';
import { Card, Empty, Pagination, Select, Table, Tag, Typography } from 'antd';
import type { ColumnType } from 'antd/es/table';
import { Fragment, type ReactNode, useState } from 'react';
import { type ConnectorRecord, useConnectorRecords } from '../../lib/connectors/queries';
import { formatDateTime, intlLocale } from '../../lib/format';
import { usePageSize } from '../../lib/query-behaviours';
import { useIsMobile } from '../../lib/use-is-mobile';
import type { Say } from './words';

interface Props {
  integrationId: string;
  slug: string;
  card: RecordsCard<string, string>;
  say: Say;
}

const text = (r: ConnectorRecord, field: string) => {
  const v = r[field];
  return typeof v === 'string' || typeof v === 'number' ? String(v) : '';
};

const amount = (v: unknown) =>
  typeof v === 'number'
    ? new Intl.NumberFormat(intlLocale(), { minimumFractionDigits: 2, maximumFractionDigits: 4 }).format(v)
    : '—';

/** How a column shows a record: in the table's cell, and on a phone's card (head, body or meta lines). */
interface Shown {
  cell: ReactNode;
  head?: ReactNode;
  body?: ReactNode;
  meta?: ReactNode[];
}

const columnKey = (c: RecordColumn<string, string>) => ('field' in c ? c.field : c.show);

function shown(column: RecordColumn<string, string>, r: ConnectorRecord, say: Say, status: ReactNode): Shown {
  switch (column.show) {
    case 'date-time': {
      const at = formatDateTime(text(r, column.field));
      return { cell: at, head: <Typography.Text type="secondary">{at}</Typography.Text> };
    }
    case 'status':
      return { cell: status, head: status };
    case 'text': {
      const body = <div className="lr-record-text">{text(r, column.field)}</div>;
      return { cell: body, body };
    }
    case 'phone': {
      const phone = <span key="phone" className="lr-mono">{`+${text(r, column.field)}`}</span>;
      const under = column.under && (
        <Typography.Text key="under" type="secondary">
          {say(`${column.under.words}.${text(r, column.under.field)}`)}
        </Typography.Text>
      );
      return {
        cell: (
          <span>
            {phone}
            {under && <br />}
            {under}
          </span>
        ),
        meta: [phone, under],
      };
    }
    case 'count': {
      const note = column.note && text(r, column.note.field) !== column.note.except ? say(column.note.word) : null;
      return {
        cell: (
          <span>
            {text(r, column.field)}
            {note && (
              <>
                <br />
                <Typography.Text type="secondary">{note}</Typography.Text>
              </>
            )}
          </span>
        ),
        meta: [
          <Typography.Text key="count" type="secondary">
            {say(column.title)}: {text(r, column.field)}
            {note && ` · ${note}`}
          </Typography.Text>,
        ],
      };
    }
    case 'amount': {
      const v = r[column.field];
      return {
        cell: amount(v),
        meta: [
          typeof v === 'number' && (
            <Typography.Text key="amount" type="secondary">
              {say(column.title)}: {amount(v)}
            </Typography.Text>
          ),
        ],
      };
    }
  }
}

/**
 * The records of one kind a connector keeps (the SMS it sent), newest first, with a status filter:
 * a table on a wide screen, cards on a phone.
 */
export function RecordsCardView({ integrationId, card, say }: Props) {
  const [pageSize, setPageSize] = usePageSize();
  const [page, setPage] = useState(1);
  const [status, setStatus] = useState<string | undefined>(undefined);
  const records = useConnectorRecords(integrationId, card.record, { page, limit: pageSize, status });
  const mobile = useIsMobile();
  const rows = records.data?.data ?? [];
  const total = records.data?.total ?? 0;
  const onPage = (p: number, size: number) => {
    setPage(size === pageSize ? p : 1);
    setPageSize(size);
  };
  const statusTag = (r: ConnectorRecord) => {
    const option = card.statuses.options.find((o) => o.value === r.status);
    return (
      <Tag color={option?.color} data-status={r.status}>
        {option ? say(option.label) : r.status}
      </Tag>
    );
  };
  const show = (c: RecordColumn<string, string>, r: ConnectorRecord) => shown(c, r, say, statusTag(r));
  const empty = <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={say(card.empty)} />;

  const columns: ColumnType<ConnectorRecord>[] = card.columns.map(({ width, column }) => ({
    key: columnKey(column),
    title: say(column.title),
    width,
    align: column.show === 'amount' ? 'right' : undefined,
    render: (_: unknown, r: ConnectorRecord) => show(column, r).cell,
  }));

  return (
    <Card
      title={say(card.title)}
      extra={
        <Select<string>
          value={status ?? ''}
          onChange={(v) => {
            setStatus(v || undefined);
            setPage(1);
          }}
          options={[
            { value: '', label: say(card.statuses.all) },
            ...card.statuses.options.map((o) => ({ value: o.value, label: say(o.label) })),
          ]}
          aria-label={say(card.statuses.label)}
        />
      }
    >
      <Typography.Paragraph type="secondary" className="lr-hint">
        {say(card.hint)}
      </Typography.Paragraph>
      {mobile ? (
        <>
          {!rows.length && !records.isFetching && empty}
          <div className="lr-record-cards">
            {rows.map((r) => {
              const parts = card.columns.map(({ column }) => ({ key: columnKey(column), ...show(column, r) }));
              const part = (where: 'head' | 'body') =>
                parts.map((p) => p[where] && <Fragment key={p.key}>{p[where]}</Fragment>);
              return (
                <div key={r._id} className="lr-record-card" data-testid="record-card">
                  <div className="lr-record-card-head">{part('head')}</div>
                  {part('body')}
                  <div className="lr-record-card-meta">
                    {parts.map((p) => p.meta && <Fragment key={p.key}>{p.meta}</Fragment>)}
                  </div>
                </div>
              );
            })}
          </div>
          {total > pageSize && (
            <Pagination
              className="lr-mt"
              current={page}
              pageSize={pageSize}
              total={total}
              onChange={onPage}
              size="small"
            />
          )}
        </>
      ) : (
        <Table<ConnectorRecord>
          rowKey="_id"
          size="small"
          loading={records.isFetching && !records.data}
          dataSource={rows}
          scroll={{ x: 860 }}
          locale={{ emptyText: empty }}
          pagination={{
            current: page,
            pageSize,
            total,
            hideOnSinglePage: true,
            showSizeChanger: true,
            onChange: onPage,
          }}
          columns={columns}
        />
      )}
    </Card>
  );
}
