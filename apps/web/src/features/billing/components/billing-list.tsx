import { Card, Empty, Pagination, Table, type TableColumnsType, Typography } from 'antd';
import type { ReactNode } from 'react';
import { errorMessage } from '../../../lib/errors';
import { useIsMobile } from '../../../lib/use-is-mobile';
import type { usePaging } from './paging';

interface ListQuery {
  isError: boolean;
  error: unknown;
  isPending: boolean;
  isFetching: boolean;
  isPlaceholderData: boolean;
}

/**
 * A paged billing list in a card: a table on a wide screen, stacked cards on a phone, one empty
 * state and one error line for both.
 */
export function BillingList<T extends { _id: string }>(props: {
  title: string;
  testId: string;
  /** "3 invoices": shown beside the title when there are any. */
  totalLabel: string;
  emptyText: string;
  query: ListQuery;
  data: T[];
  total: number;
  paging: Pick<ReturnType<typeof usePaging>, 'limit' | 'pagination'>;
  columns: TableColumnsType<T>;
  /** The body of one item's card on a phone. */
  card(item: T): ReactNode;
}) {
  const { query, data, total, paging } = props;
  const mobile = useIsMobile();
  const empty = <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={props.emptyText} />;
  const cards =
    data.length === 0 ? (
      empty
    ) : (
      <>
        <ul className="lr-billing-cards">
          {data.map((item) => (
            <li key={item._id} className="lr-billing-item" data-testid={`${props.testId.replace(/s$/, '')}-card`}>
              {props.card(item)}
            </li>
          ))}
        </ul>
        {total > paging.limit && (
          <Pagination className="lr-billing-pagination" size="small" {...paging.pagination(total)} />
        )}
      </>
    );
  return (
    <Card
      title={props.title}
      className="lr-billing-list"
      data-testid={props.testId}
      extra={total > 0 && <Typography.Text type="secondary">{props.totalLabel}</Typography.Text>}
    >
      {query.isError && (
        <Typography.Paragraph type="danger" role="alert">
          {errorMessage(query.error)}
        </Typography.Paragraph>
      )}
      {mobile ? (
        query.isPending ? null : (
          cards
        )
      ) : (
        <Table<T>
          rowKey="_id"
          size="small"
          loading={query.isPending || (query.isFetching && query.isPlaceholderData)}
          dataSource={data}
          locale={{ emptyText: empty }}
          pagination={paging.pagination(total)}
          columns={props.columns}
        />
      )}
    </Card>
  );
}
