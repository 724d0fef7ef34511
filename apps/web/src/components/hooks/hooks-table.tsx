import { HOOK_STATUSES, type Hook, type HookStatus } from '@leadrelay/shared';
import { Empty, Pagination, Table, Typography } from 'antd';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { errorMessage } from '../../lib/errors';
import { formatDateTime } from '../../lib/hooks/format';
import {
  RECENT_HOOKS,
  useHooksQuery,
  useRemoveAllHooksMutation,
  useRemoveHooksMutation,
  useRenewHooksMutation,
} from '../../lib/hooks/queries';
import { localePath } from '../../lib/locale';
import { usePageSize } from '../../lib/query-behaviours';
import { useIsMobile } from '../../lib/use-is-mobile';
import { DeliveryChips, LeadCell } from './hook-cells';
import { HooksCards } from './hooks-cards';
import { HooksToolbar } from './hooks-toolbar';
import { HookStatusTag, LeadWarningTags } from './status-tags';
import './hooks.css';
import { useApp } from '../../lib/use-app';

/** What names a row for a screen reader: the lead's name or phone, else when it came. */
const rowName = (hook: Hook) => String(hook.lead?.name || hook.lead?.phone || formatDateTime(hook.createdAt));

export interface HooksTableProps {
  /** Only the hooks of this source (the integration column is then hidden). */
  integrationId?: string;
  /** The dashboard's "recent hooks": no filters, no selection, a "view all" link. */
  compact?: boolean;
  pageSize?: number;
}

// A lead's details (drawer, attempts timeline, notes) load when a row is first opened (issue 17 part 8).
const HookDrawer = lazy(() => import('./hook-drawer').then((m) => ({ default: m.HookDrawer })));
type Busy = 'renew' | 'delete' | 'deleteAll' | null;

/** Inbound lead events, newest first, with what became of them per destination. */
export function HooksTable({ integrationId, compact = false, pageSize }: HooksTableProps) {
  const { t } = useTranslation('hooks');
  const { t: tc } = useTranslation('common');
  const { message } = useApp();
  const mobile = useIsMobile();
  const [storedSize, setStoredSize] = usePageSize();
  const limit = pageSize ?? (compact ? RECENT_HOOKS.limit : storedSize);
  const [page, setPage] = useState(1);
  // A link may open the log filtered (the guardian's reconciliation: ?status=failed).
  const [params] = useSearchParams();
  const [status, setStatus] = useState<HookStatus | undefined>(() => statusParam(params.get('status')));
  const [search, setSearch] = useState('');
  const [selected, setSelected] = useState<string[]>([]);
  const [openId, setOpenId] = useState<string | null>(null);
  // Stays mounted once opened, so closing it animates.
  const [hasOpened, setHasOpened] = useState(false);
  const open = (id: string) => {
    setOpenId(id);
    setHasOpened(true);
  };
  const [busy, setBusy] = useState<Busy>(null);
  const query = useHooksQuery({
    page: compact ? 1 : page,
    limit,
    integrationId,
    status: compact ? undefined : status,
    search: compact ? undefined : search || undefined,
  });
  const renew = useRenewHooksMutation();
  const remove = useRemoveHooksMutation();
  const removeAll = useRemoveAllHooksMutation();

  const hooks = query.data?.data ?? [];
  const total = query.data?.total ?? 0;
  const filtered = Boolean(status || search);

  // After deleting the last rows of the last page, show the page that now is the last one.
  useEffect(() => {
    if (!compact && query.data && !query.data.data.length && page > 1) {
      setPage(Math.max(1, Math.ceil(query.data.total / limit)));
    }
  }, [compact, query.data, page, limit]);

  const run = async (kind: Exclude<Busy, null>, action: () => Promise<unknown>, success: string) => {
    setBusy(kind);
    try {
      await action();
      setSelected([]);
      void message.success(success);
    } catch (err) {
      void message.error(errorMessage(err));
    } finally {
      setBusy(null);
    }
  };

  const resetPage =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      set(v);
      setPage(1);
      setSelected([]);
    };

  const empty = (
    <Empty
      image={Empty.PRESENTED_IMAGE_SIMPLE}
      description={
        filtered ? (
          t('empty.filtered')
        ) : (
          <>
            <Typography.Text strong>{t('empty.title')}</Typography.Text>
            <br />
            <Typography.Text type="secondary">{t('empty.text')}</Typography.Text>
          </>
        )
      }
    />
  );

  const onPage = (p: number, size: number) => {
    if (size !== limit) {
      setStoredSize(size);
      setPage(1);
    } else setPage(p);
  };

  return (
    <div className={compact ? 'lr-hooks lr-hooks-compact' : 'lr-hooks'}>
      {!compact && (
        <HooksToolbar
          status={status}
          onStatus={resetPage(setStatus)}
          onSearch={resetPage(setSearch)}
          selected={selected.length}
          total={total}
          busy={busy}
          onRenew={() => run('renew', () => renew.mutateAsync(selected), t('ui.saved_success'))}
          onDelete={() => run('delete', () => remove.mutateAsync(selected), t('ui.deleted_success'))}
          onDeleteAll={() => run('deleteAll', () => removeAll.mutateAsync(), t('ui.deleted_success'))}
        />
      )}
      {query.isError && (
        <Typography.Paragraph type="danger" role="alert">
          {errorMessage(query.error)}
        </Typography.Paragraph>
      )}
      {mobile ? (
        <>
          {!hooks.length && !query.isPending ? (
            empty
          ) : (
            <HooksCards
              hooks={hooks}
              showIntegration={!integrationId}
              selectable={!compact}
              selected={selected}
              onSelect={(id, on) => setSelected((s) => (on ? [...s, id] : s.filter((x) => x !== id)))}
              onOpen={open}
            />
          )}
          {!compact && total > limit && (
            <Pagination
              className="lr-hooks-pagination"
              size="small"
              current={page}
              pageSize={limit}
              total={total}
              showSizeChanger
              pageSizeOptions={[10, 20, 50]}
              onChange={onPage}
            />
          )}
        </>
      ) : (
        <Table<Hook>
          rowKey="_id"
          size="small"
          loading={query.isPending || (query.isFetching && query.isPlaceholderData)}
          dataSource={hooks}
          scroll={{ x: integrationId ? 760 : 900 }}
          locale={{ emptyText: empty }}
          rowClassName="lr-clickable-row"
          onRow={(hook) => ({
            'data-testid': 'hook-row',
            onClick: (e) => {
              if ((e.target as HTMLElement).closest('.ant-table-selection-column')) return;
              open(hook._id);
            },
          })}
          rowSelection={
            compact
              ? undefined
              : {
                  selectedRowKeys: selected,
                  preserveSelectedRowKeys: true,
                  onChange: (keys) => setSelected(keys as string[]),
                  // antd names these checkboxes in English ("Select all", "Select row 1").
                  getTitleCheckboxProps: () => ({ 'aria-label': tc('selectAll') }),
                  getCheckboxProps: (hook: Hook) => ({
                    'aria-label': tc('selectRow', { name: rowName(hook) }),
                  }),
                }
          }
          pagination={
            compact
              ? false
              : {
                  current: page,
                  pageSize: limit,
                  total,
                  showSizeChanger: true,
                  pageSizeOptions: [10, 20, 50],
                  hideOnSinglePage: false,
                  onChange: onPage,
                }
          }
          columns={[
            {
              title: t('columns.received'),
              dataIndex: 'createdAt',
              width: 170,
              render: (iso: string) => <span className="lr-nowrap">{formatDateTime(iso)}</span>,
            },
            ...(integrationId
              ? []
              : [
                  {
                    title: t('columns.integration'),
                    key: 'integration',
                    width: 160,
                    render: (_: unknown, h: Hook) => <span className="lr-break">{h.integration.name}</span>,
                  },
                ]),
            { title: t('columns.lead'), key: 'lead', render: (_: unknown, h: Hook) => <LeadCell hook={h} /> },
            {
              title: t('columns.status'),
              key: 'status',
              width: 150,
              render: (_: unknown, h: Hook) => (
                <>
                  <HookStatusTag status={h.status} reason={h.reason} />
                  <LeadWarningTags warnings={h.warnings} />
                </>
              ),
            },
            {
              title: t('columns.destinations'),
              key: 'deliveries',
              render: (_: unknown, h: Hook) => <DeliveryChips hook={h} />,
            },
          ]}
        />
      )}
      {/* Inside an integration's own page the link would lead away from its leads. */}
      {compact && !integrationId && (
        <div className="lr-hooks-view-all">
          <Link to={localePath('/admin/integrations')}>{t('actions.viewAll')}</Link>
        </div>
      )}
      {hasOpened && (
        <Suspense fallback={null}>
          <HookDrawer hookId={openId} onClose={() => setOpenId(null)} />
        </Suspense>
      )}
    </div>
  );
}

/** A status the lead log can filter by, read from the URL; anything else is no filter. */
function statusParam(value: string | null): HookStatus | undefined {
  return (HOOK_STATUSES as readonly string[]).includes(value ?? '') ? (value as HookStatus) : undefined;
}
