import { ClearOutlined, PlusOutlined } from '@ant-design/icons';
import { CLIENT_SORTS, type Client, type ClientStatus, type Locale } from '@leadrelay/shared';
import { Button, Card, Input, Select, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ServerError } from '../../../components/server-error';
import { useMe } from '../../../lib/current-user';
import { errorMessage } from '../../../lib/errors';
import { currentLocale } from '../../../lib/locale';
import { usePlansQuery } from '../../../lib/plans';
import { usePageSize } from '../../../lib/query-behaviours';
import type { ClientDialog } from '../components/client-actions';
import { ClientCounters } from '../components/client-counters';
import { ClientEditModal } from '../components/client-edit-modal';
import { ClientStatsDrawer } from '../components/client-stats-drawer';
import { ClientsTable } from '../components/clients-table';
import { CreateClientModal } from '../components/create-client-modal';
import { HardDeleteModal } from '../components/hard-delete-modal';
import { useClientsQuery, useOrphansMutation } from '../queries';
import '../clients.css';
import { useApp } from '../../../lib/use-app';

/**
 * /admin/super/clients and /admin/clients: counters, the accounts with search, filters and sort,
 * and per account its statistics, changes, entering it, a password reset and deletes.
 */
export function ClientsPage() {
  const { t } = useTranslation('clients');
  const { message, modal } = useApp();
  const { data: me } = useMe();
  const [limit, setLimit] = usePageSize();
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState<string>();
  const [status, setStatus] = useState<ClientStatus>();
  const [plan, setPlan] = useState<string>();
  const [sort, setSort] = useState<(typeof CLIENT_SORTS)[number]>('-createdAt');
  const [dialog, setDialog] = useState<{ kind: ClientDialog; client: Client } | null>(null);
  const [creating, setCreating] = useState(false);
  const query = useClientsQuery({ page, limit, search, status, plan, sort });
  const plans = usePlansQuery();
  const orphans = useOrphansMutation();
  const lang: Locale = currentLocale();
  const isOwner = me?.role === 'owner';
  const filter =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      set(v);
      setPage(1);
    };

  const cleanOrphans = () =>
    modal.confirm({
      title: t('orphans.confirm'),
      content: t('orphans.explain'),
      okText: t('orphans.submit'),
      onOk: async () => {
        try {
          const res = await orphans.mutateAsync();
          void message.success(t('orphans.done', { count: res.total }));
        } catch (err) {
          void message.error(errorMessage(err));
        }
      },
    });

  return (
    <div className="lr-page">
      <Typography.Title level={2} className="lr-page-title">
        {t('title')}
      </Typography.Title>
      <ClientCounters counter={query.data?.counter} onPick={filter(setStatus)} />
      <Card>
        <div className="lr-clients-toolbar">
          <Input.Search
            allowClear
            placeholder={t('filters.search')}
            aria-label={t('filters.search')}
            onSearch={(v) => filter(setSearch)(v.trim() || undefined)}
            className="lr-clients-search"
          />
          <Select<ClientStatus | 'all'>
            aria-label={t('filters.status')}
            value={status ?? 'all'}
            onChange={(v) => filter(setStatus)(v === 'all' ? undefined : v)}
            options={[
              { value: 'all', label: t('filters.allStatuses') },
              { value: 'active', label: t('status.active') },
              { value: 'inactive', label: t('status.inactive') },
              { value: 'deleted', label: t('status.deleted') },
            ]}
          />
          <Select<string>
            aria-label={t('filters.plan')}
            value={plan ?? 'all'}
            onChange={(v) => filter(setPlan)(v === 'all' ? undefined : v)}
            options={[
              { value: 'all', label: t('filters.allPlans') },
              { value: 'demo', label: t('demo') },
              ...(plans.data ?? []).map((p) => ({ value: p._id, label: p.title[lang] })),
            ]}
          />
          <Select
            aria-label={t('filters.sort')}
            value={sort}
            onChange={filter(setSort)}
            options={CLIENT_SORTS.map((s) => ({
              value: s,
              label: t(`sort.${s.startsWith('-') ? `${s.slice(1)}Desc` : s}` as 'sort.login'),
            }))}
          />
          <div className="lr-clients-toolbar-actions">
            <Button icon={<ClearOutlined aria-hidden />} onClick={cleanOrphans} loading={orphans.isPending}>
              {t('orphans.button')}
            </Button>
            <Button type="primary" icon={<PlusOutlined aria-hidden />} onClick={() => setCreating(true)}>
              {t('create.button')}
            </Button>
          </div>
        </div>
        {query.isError && <ServerError error={query.error} />}
        <ClientsTable
          data={query.data?.data ?? []}
          loading={query.isPending || (query.isFetching && query.isPlaceholderData)}
          me={{ _id: me?._id ?? '', role: me?.role ?? 'client' }}
          pagination={{
            current: page,
            pageSize: limit,
            total: query.data?.total ?? 0,
            onChange: (p, size) => {
              if (size !== limit) {
                setLimit(size);
                setPage(1);
              } else setPage(p);
            },
          }}
          onOpen={(kind, client) => setDialog({ kind, client })}
        />
      </Card>
      <ClientStatsDrawer client={dialog?.kind === 'stats' ? dialog.client : null} onClose={() => setDialog(null)} />
      {dialog?.kind === 'edit' && (
        <ClientEditModal client={dialog.client} isOwner={isOwner} onClose={() => setDialog(null)} />
      )}
      {dialog?.kind === 'hardDelete' && <HardDeleteModal client={dialog.client} onClose={() => setDialog(null)} />}
      <CreateClientModal open={creating} isOwner={isOwner} onClose={() => setCreating(false)} />
    </div>
  );
}
