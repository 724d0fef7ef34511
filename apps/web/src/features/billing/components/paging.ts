import { useState } from 'react';
import { usePageSize } from '../../../lib/query-behaviours';

/** A list's page and the page size every table keeps locally (spec: default 10). */
export function usePaging() {
  const [limit, setLimit] = usePageSize();
  const [page, setPage] = useState(1);
  const pagination = (total: number) => ({
    current: page,
    pageSize: limit,
    total,
    showSizeChanger: true,
    pageSizeOptions: [10, 20, 50],
    hideOnSinglePage: true,
    onChange: (p: number, size: number) => {
      if (size !== limit) {
        setLimit(size);
        setPage(1);
      } else setPage(p);
    },
  });
  return { page, limit, pagination };
}
