import { ApiOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import type { Integration } from '@leadrelay/shared';
import { Button, Card, Empty, Input, Pagination, Popconfirm, Select, Skeleton, Switch, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { errorMessage } from '../../lib/errors';
import { formatDate } from '../../lib/format';
import type { IntegrationListParams } from '../../lib/integrations/api';
import { typeDescription, typeName } from '../../lib/integrations/catalogue';
import { integrationPath } from '../../lib/integrations/integration-path';
import {
  useCatalogueQuery,
  useDeleteIntegrationMutation,
  useIntegrationsQuery,
  useUpdateIntegrationMutation,
} from '../../lib/integrations/queries';
import { usePageSize } from '../../lib/query-behaviours';
import { useApp } from '../../lib/use-app';
import { useIsMobile } from '../../lib/use-is-mobile';
import { PermissionGuard } from '../permission-guard';
import { StatusTag } from './status-tag';

type ActiveFilter = 'all' | 'true' | 'false';

interface Props {
  /** Fixed type (the /admin/integrations/:type route): the type filter is not offered. */
  fixedType?: string;
  /** A connector's own words while it has no connection (its manifest's): what it is for, and its first step. */
  empty?: { title: string; text: string; action: string };
  onCreate: () => void;
}

/** The account's integrations: filters, a table on desktop and cards on phones, paging with the kept page size. */
export function IntegrationsList({ fixedType, empty: ownEmpty, onCreate }: Props) {
  const { t } = useTranslation('integrations');
  const { t: tc } = useTranslation('common');
  const { message } = useApp();
  const mobile = useIsMobile();
  const [pageSize, setPageSize] = usePageSize();
  const [page, setPage] = useState(1);
  const [type, setType] = useState<string | undefined>(undefined);
  const [active, setActive] = useState<ActiveFilter>('all');
  const [search, setSearch] = useState('');
  const catalogue = useCatalogueQuery();
  const update = useUpdateIntegrationMutation();
  const remove = useDeleteIntegrationMutation();

  const params: IntegrationListParams = {
    page,
    limit: pageSize,
    type: fixedType ?? type,
    active: active === 'all' ? undefined : active,
    search: search.trim() || undefined,
  };
  const list = useIntegrationsQuery(params);
  const rows = list.data?.data ?? [];
  const total = list.data?.total ?? 0;
  const filtered = Boolean((!fixedType && type) || active !== 'all' || search.trim());

  const toggle = async (i: Integration, value: boolean) => {
    try {
      await update.mutateAsync({ id: i._id, body: { active: value } });
      void message.success(tc('saved'));
    } catch (err) {
      void message.error(errorMessage(err));
    }
  };
  const onDelete = async (i: Integration) => {
    try {
      await remove.mutateAsync(i._id);
      void message.success(tc('deleted'));
      if (rows.length === 1 && page > 1) setPage(page - 1);
    } catch (err) {
      void message.error(errorMessage(err));
    }
  };
  const changeFilter =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      set(v);
      setPage(1);
    };

  const activeSwitch = (i: Integration) => (
    <PermissionGuard>
      <Switch
        size="small"
        checked={i.active}
        loading={update.isPending && update.variables?.id === i._id}
        onChange={(v) => toggle(i, v)}
        aria-label={t('list.activeFor', { name: i.name })}
      />
    </PermissionGuard>
  );
  const deleteButton = (i: Integration) => (
    <PermissionGuard>
      <Popconfirm
        title={t('list.deleteConfirm', { name: i.name })}
        description={t('list.deleteHint')}
        okText={t('list.delete')}
        okButtonProps={{ danger: true }}
        cancelText={tc('cancel')}
        onConfirm={() => onDelete(i)}
      >
        <Button
          size="small"
          danger
          type="text"
          icon={<DeleteOutlined aria-hidden />}
          aria-label={t('list.deleteFor', { name: i.name })}
        />
      </Popconfirm>
    </PermissionGuard>
  );
  const destinationsCount = (i: Integration) =>
    i.kind === 'source' ? t('list.destinationsCount', { count: i.destination.length }) : '—';
  const typeLabel = (i: Integration) => typeName(catalogue.data, i.type);

  const filters = (
    <div className="lr-filters">
      <Input.Search
        allowClear
        placeholder={t('list.search')}
        aria-label={t('list.search')}
        onSearch={changeFilter(setSearch)}
        className="lr-filter-search"
      />
      {!fixedType && (
        <Select
          allowClear
          placeholder={t('list.allTypes')}
          aria-label={t('list.typeFilter')}
          value={type}
          onChange={changeFilter(setType)}
          options={(catalogue.data ?? []).filter((s) => !s.hidden).map((s) => ({ value: s.slug, label: s.name }))}
          className="lr-filter-select"
        />
      )}
      <Select<ActiveFilter>
        aria-label={t('list.activeFilter')}
        value={active}
        onChange={changeFilter(setActive)}
        options={[
          { value: 'all', label: t('list.anyState') },
          { value: 'true', label: t('list.onlyActive') },
          { value: 'false', label: t('list.onlyInactive') },
        ]}
        className="lr-filter-select"
      />
    </div>
  );

  const typeEmpty = (slug: string) => {
    const name = typeName(catalogue.data, slug);
    return {
      title: t('empty.typeTitle', { name }),
      text: typeDescription(slug) ?? t('empty.typeText', { name }),
      action: t('empty.typeAction', { name }),
    };
  };
  // A connector's own list says what connecting it does and offers its own first step, not how to
  // create a webhook; a type with no words of its own (an operator's) says what its catalogue says.
  const own = ownEmpty ?? (fixedType && fixedType !== 'webhook' ? typeEmpty(fixedType) : null);
  const empty =
    !list.isPending && total === 0 ? (
      filtered ? (
        <Empty description={t('list.noMatches')} />
      ) : (
        <Empty
          image={<ApiOutlined aria-hidden className="lr-empty-icon" />}
          className="lr-dashboard-empty"
          data-testid="integrations-empty"
          description={
            <>
              <Typography.Title level={4}>{own ? own.title : t('empty.title')}</Typography.Title>
              <Typography.Paragraph type="secondary" className="lr-empty-text">
                {own ? own.text : t('empty.text')}
              </Typography.Paragraph>
            </>
          }
        >
          <PermissionGuard>
            <Button type="primary" icon={<PlusOutlined aria-hidden />} onClick={onCreate}>
              {own ? own.action : t('empty.action')}
            </Button>
          </PermissionGuard>
        </Empty>
      )
    ) : null;

  const pagination = {
    current: page,
    pageSize,
    total,
    showSizeChanger: true,
    pageSizeOptions: [10, 20, 50],
    onChange: (p: number, size: number) => {
      if (size !== pageSize) {
        setPageSize(size);
        setPage(1);
      } else setPage(p);
    },
  };

  return (
    <Card>
      {filters}
      {list.isError && <Typography.Text type="danger">{errorMessage(list.error)}</Typography.Text>}
      {empty ??
        (mobile ? (
          <>
            {list.isPending && <Skeleton active />}
            {rows.map((i) => (
              <Card key={i._id} size="small" className="lr-int-card" data-testid="integration-card">
                <div className="lr-int-card-head">
                  <Link to={integrationPath(i)} className="lr-int-name">
                    {i.name}
                  </Link>
                  {activeSwitch(i)}
                </div>
                <div className="lr-int-card-meta">
                  <span>{typeLabel(i)}</span>
                  {i.kind === 'source' && <span>{destinationsCount(i)}</span>}
                  <span>{formatDate(i.createdAt)}</span>
                </div>
                <div className="lr-int-card-foot">
                  <StatusTag integration={i} />
                  {deleteButton(i)}
                </div>
              </Card>
            ))}
            {total > 0 && <Pagination {...pagination} size="small" className="lr-pagination" />}
          </>
        ) : (
          <Table<Integration>
            rowKey="_id"
            size="middle"
            loading={list.isPending || list.isFetching}
            dataSource={rows}
            scroll={{ x: 900 }}
            pagination={pagination}
            columns={[
              {
                title: t('list.name'),
                key: 'name',
                render: (_v, i) => (
                  <Link to={integrationPath(i)} className="lr-int-name">
                    {i.name}
                  </Link>
                ),
              },
              {
                title: t('list.type'),
                key: 'type',
                render: (_v, i) => <span>{typeLabel(i)}</span>,
              },
              { title: t('list.active'), key: 'active', width: 110, render: (_v, i) => activeSwitch(i) },
              { title: t('list.status'), key: 'status', render: (_v, i) => <StatusTag integration={i} /> },
              { title: t('list.destinations'), key: 'destinations', render: (_v, i) => destinationsCount(i) },
              {
                title: t('list.created'),
                key: 'created',
                width: 140,
                render: (_v, i) => formatDate(i.createdAt),
              },
              { key: 'actions', width: 60, align: 'right', render: (_v, i) => deleteButton(i) },
            ]}
          />
        ))}
    </Card>
  );
}
