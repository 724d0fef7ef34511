import { ClockCircleOutlined, DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import type { Collection, CollectionItem, Locale, WorkingHours } from '@leadrelay/shared';
import { Button, Card, Empty, List, Popconfirm, Space, Switch, Table, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../lib/errors';
import { intlLocale } from '../../../lib/format';
import { useApp } from '../../../lib/use-app';
import {
  useAddItemMutation,
  useDeleteCollectionMutation,
  useRemoveItemMutation,
  useSetAwayMutation,
  useTelegramBotsQuery,
  useUpdateCollectionMutation,
} from '../queries';
import { HoursModal } from './hours-modal';
import { hoursSummary } from './hours-summary';
import { ItemModal, type ItemValues } from './item-modal';
import { NameModal } from './name-modal';
import { TelegramLink } from './telegram-link';

/** Each item's share of the leads under the weighted round-robin (weight defaults to 1). */
export function shares(items: readonly CollectionItem[]): Map<string, number> {
  const total = items.reduce((sum, i) => sum + (i.weight ?? 1), 0);
  return new Map(items.map((i) => [i.id, total ? (i.weight ?? 1) / total : 0]));
}

type Editing = { mode: 'add' } | { mode: 'edit'; item: CollectionItem } | null;

export function CollectionCard({ collection, mobile }: { collection: Collection; mobile: boolean }) {
  const { t, i18n } = useTranslation('collections');
  const { t: tc } = useTranslation('common');
  const { message } = useApp();
  const [renaming, setRenaming] = useState(false);
  const [editing, setEditing] = useState<Editing>(null);
  const [hoursFor, setHoursFor] = useState<CollectionItem | null>(null);
  const setAway = useSetAwayMutation();
  const update = useUpdateCollectionMutation();
  const remove = useDeleteCollectionMutation();
  const addItem = useAddItemMutation();
  const removeItem = useRemoveItemMutation();
  const percent = new Intl.NumberFormat(intlLocale(i18n.language as Locale), {
    style: 'percent',
    maximumFractionDigits: 0,
  });
  const share = shares(collection.items);
  // The Telegram bot this collection's managers link to (issue 19), when one sends cards to it.
  const bot = useTelegramBotsQuery().data?.find((b) => b.collectionId === collection._id && b.botUsername);
  const telegramOf = (item: CollectionItem) =>
    bot ? <TelegramLink collectionId={collection._id} item={item} integrationId={bot.integrationId} /> : null;

  const onDelete = async () => {
    try {
      await remove.mutateAsync(collection._id);
      void message.success(t('messages.deleted'));
    } catch (err) {
      void message.error(errorMessage(err));
    }
  };

  const onRemoveItem = async (item: CollectionItem) => {
    try {
      await removeItem.mutateAsync({ id: collection._id, itemId: item.id });
      void message.success(t('messages.itemRemoved'));
    } catch (err) {
      void message.error(errorMessage(err));
    }
  };

  const onSaveItem = async (values: ItemValues) => {
    if (editing?.mode === 'edit') {
      // PUT /:id replaces the list; ids are kept, so the round-robin position survives.
      const items = collection.items.map((i) => (i.id === editing.item.id ? { ...i, ...values } : i));
      await update.mutateAsync({ id: collection._id, items });
      void message.success(tc('saved'));
    } else {
      await addItem.mutateAsync({ id: collection._id, item: values });
      void message.success(t('messages.itemAdded'));
    }
  };

  const onSaveHours = async (hours: WorkingHours | undefined) => {
    if (!hoursFor) return;
    const items = collection.items.map((i) => {
      if (i.id !== hoursFor.id) return i;
      const { hours: _old, ...rest } = i;
      return hours ? { ...rest, hours } : rest;
    });
    await update.mutateAsync({ id: collection._id, items });
    void message.success(tc('saved'));
  };

  const onAway = async (item: CollectionItem, away: boolean) => {
    try {
      await setAway.mutateAsync({ id: collection._id, itemId: item.id, away });
      void message.success(away ? t('away.on', { name: item.name }) : t('away.off', { name: item.name }));
    } catch (err) {
      void message.error(errorMessage(err));
    }
  };

  const dutyText = (item: CollectionItem) =>
    item.hours ? hoursSummary(item.hours, i18n.language as Locale) || t('hours.never') : t('hours.always');

  const duty = (item: CollectionItem) => (
    <Space direction="vertical" size={2} className="lr-duty">
      <Typography.Text type="secondary" className="lr-duty-hours">
        {dutyText(item)}
      </Typography.Text>
      <Space size={6}>
        <Switch
          size="small"
          checked={item.away === true}
          loading={setAway.isPending && setAway.variables?.itemId === item.id}
          aria-label={t('away.switchNamed', { name: item.name })}
          onChange={(away) => onAway(item, away)}
        />
        <Typography.Text type={item.away ? 'warning' : 'secondary'}>{t('away.label')}</Typography.Text>
      </Space>
    </Space>
  );

  const itemActions = (item: CollectionItem) => [
    <Tooltip title={t('hours.edit')} key="hours">
      <Button
        type="text"
        size="small"
        icon={<ClockCircleOutlined aria-hidden />}
        aria-label={t('hours.editNamed', { name: item.name })}
        onClick={() => setHoursFor(item)}
      />
    </Tooltip>,
    <Tooltip title={t('item.edit')} key="edit">
      <Button
        type="text"
        size="small"
        icon={<EditOutlined aria-hidden />}
        aria-label={t('item.editNamed', { name: item.name })}
        onClick={() => setEditing({ mode: 'edit', item })}
      />
    </Tooltip>,
    <Popconfirm
      key="remove"
      title={t('item.removeConfirm', { name: item.name })}
      okText={t('item.remove')}
      okButtonProps={{ danger: true }}
      cancelText={tc('cancel')}
      onConfirm={() => onRemoveItem(item)}
    >
      <Button
        type="text"
        size="small"
        danger
        icon={<DeleteOutlined aria-hidden />}
        aria-label={t('item.removeNamed', { name: item.name })}
      />
    </Popconfirm>,
  ];

  const weightText = (item: CollectionItem) =>
    t('item.weightShare', { weight: item.weight ?? 1, share: percent.format(share.get(item.id) ?? 0) });

  const items =
    collection.items.length === 0 ? (
      <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('item.empty')} />
    ) : mobile ? (
      <List
        className="lr-collection-items"
        dataSource={collection.items}
        rowKey="id"
        renderItem={(item) => (
          <List.Item actions={itemActions(item)}>
            <List.Item.Meta
              title={item.name}
              description={
                <Space direction="vertical" size={0}>
                  <Typography.Text code copyable className="lr-collection-value">
                    {item.value}
                  </Typography.Text>
                  <Typography.Text type="secondary">{weightText(item)}</Typography.Text>
                  {telegramOf(item)}
                  {duty(item)}
                </Space>
              }
            />
          </List.Item>
        )}
      />
    ) : (
      <Table<CollectionItem>
        rowKey="id"
        size="small"
        pagination={collection.items.length > 10 ? { pageSize: 10, hideOnSinglePage: true } : false}
        dataSource={collection.items}
        columns={[
          { title: t('fields.itemName'), dataIndex: 'name', ellipsis: true },
          {
            title: t('fields.value'),
            dataIndex: 'value',
            render: (value: string) => (
              <Typography.Text code copyable className="lr-collection-value">
                {value}
              </Typography.Text>
            ),
          },
          { title: t('fields.weight'), key: 'weight', width: 150, render: (_v, item) => weightText(item) },
          ...(bot
            ? [
                {
                  title: 'Telegram',
                  key: 'telegram',
                  width: 230,
                  render: (_v: unknown, item: CollectionItem) => telegramOf(item),
                },
              ]
            : []),
          { title: t('hours.column'), key: 'duty', width: 220, render: (_v, item) => duty(item) },
          {
            key: 'actions',
            width: 128,
            align: 'right',
            render: (_v, item) => <Space size={0}>{itemActions(item)}</Space>,
          },
        ]}
      />
    );

  return (
    <Card
      className="lr-collection"
      data-testid={`collection-${collection._id}`}
      title={
        <Space size={8} wrap>
          <span className="lr-collection-name">{collection.name}</span>
          <Tag>{t('itemsCount', { count: collection.items.length })}</Tag>
        </Space>
      }
      extra={
        <Space size={4} wrap>
          <Button
            size="small"
            type="primary"
            ghost
            icon={<PlusOutlined aria-hidden />}
            onClick={() => setEditing({ mode: 'add' })}
          >
            {t('item.add')}
          </Button>
          <Tooltip title={t('rename')}>
            <Button
              size="small"
              icon={<EditOutlined aria-hidden />}
              aria-label={t('renameNamed', { name: collection.name })}
              onClick={() => setRenaming(true)}
            />
          </Tooltip>
          <Popconfirm
            title={t('deleteConfirm', { name: collection.name })}
            description={t('deleteHint')}
            okText={t('delete')}
            okButtonProps={{ danger: true }}
            cancelText={tc('cancel')}
            onConfirm={onDelete}
          >
            <Button
              size="small"
              danger
              icon={<DeleteOutlined aria-hidden />}
              aria-label={t('deleteNamed', { name: collection.name })}
              loading={remove.isPending}
            />
          </Popconfirm>
        </Space>
      }
    >
      {items}
      <NameModal
        open={renaming}
        title={t('renameTitle')}
        okText={tc('save')}
        initialName={collection.name}
        onClose={() => setRenaming(false)}
        onSubmit={async (name) => {
          await update.mutateAsync({ id: collection._id, name });
          void message.success(tc('saved'));
        }}
      />
      <ItemModal
        open={editing !== null}
        item={editing?.mode === 'edit' ? editing.item : null}
        onClose={() => setEditing(null)}
        onSubmit={onSaveItem}
      />
      <HoursModal open={hoursFor !== null} item={hoursFor} onClose={() => setHoursFor(null)} onSubmit={onSaveHours} />
    </Card>
  );
}
