import { Empty, Skeleton } from 'antd';
import type { ReactNode } from 'react';

export interface RowItem {
  key: string;
  title: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
  testId?: string;
}

/** A plain list of rows (title, description, actions) that wraps on a phone. */
export function RowList({ items, empty, loading }: { items: RowItem[]; empty: string; loading?: boolean }) {
  if (loading) return <Skeleton active paragraph={{ rows: 2 }} />;
  if (items.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={empty} />;
  return (
    <ul className="lr-crm-list">
      {items.map((item) => (
        <li key={item.key} className="lr-crm-list-row" data-testid={item.testId}>
          <div className="lr-min0">
            <div className="lr-crm-list-title">{item.title}</div>
            {item.description && <div className="lr-crm-list-desc">{item.description}</div>}
          </div>
          {item.actions && <div className="lr-crm-list-actions">{item.actions}</div>}
        </li>
      ))}
    </ul>
  );
}
