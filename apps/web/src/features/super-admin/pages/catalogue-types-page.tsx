import { DeleteOutlined, EditOutlined } from '@ant-design/icons';
import type { Setting } from '@leadrelay/shared';
import { Button, Popconfirm, Space, Switch, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../lib/errors';
import { categoryLabel, tagLabel, typeLabel, typeName } from '../../../lib/integrations/catalogue';
import { useCatalogueQuery } from '../../../lib/integrations/queries';
import { useIsMobile } from '../../../lib/use-is-mobile';
import { useDeleteSettingMutation, useSaveSettingMutation } from '../catalogue-queries';
import { CataloguePageHead, TagRow } from '../components/catalogue-parts';
import { CatalogueSettingModal } from '../components/catalogue-setting-modal';
import { TypeCards } from '../components/catalogue-type-cards';
import '../catalogue.css';
import { useApp } from '../../../lib/use-app';

const inputOf = (s: Setting) => ({
  id: s._id,
  name: s.name,
  categoryId: s.category?._id ?? null,
  hidden: s.hidden,
  destinations: s.destinations.map((d) => d.slug),
  tags: s.tags,
});

/** /admin/super/integrations: the integration types (name, hidden, category, slug, destinations, tags, modules). */
export function CatalogueTypesPage() {
  const { t } = useTranslation('catalogue');
  const { message } = useApp();
  const types = useCatalogueQuery();
  const save = useSaveSettingMutation();
  const remove = useDeleteSettingMutation();
  const [editing, setEditing] = useState<Setting | null>();
  const mobile = useIsMobile();
  const all = types.data ?? [];
  const nameOf = (slug: string) => typeName(all, slug);

  const act = async (run: () => Promise<unknown>, done: string) => {
    try {
      await run();
      void message.success(done);
    } catch (err) {
      void message.error(errorMessage(err));
    }
  };

  return (
    <div className="lr-page">
      <CataloguePageHead title={t('types.title')} createLabel={t('types.create')} onCreate={() => setEditing(null)} />
      {types.isError && <Typography.Paragraph type="danger">{errorMessage(types.error)}</Typography.Paragraph>}
      {mobile ? (
        <TypeCards
          types={all}
          loading={types.isPending}
          nameOf={nameOf}
          onHidden={(s, hidden) => void act(() => save.mutateAsync({ ...inputOf(s), hidden }), t('saved'))}
          onEdit={setEditing}
          onDelete={(s) => act(() => remove.mutateAsync(s._id), t('deleted'))}
        />
      ) : (
        <Table<Setting>
          rowKey="_id"
          size="middle"
          loading={types.isPending}
          dataSource={all}
          pagination={false}
          scroll={{ x: 1000 }}
          columns={[
            { key: 'name', title: t('types.name'), fixed: 'left', width: 150, render: (_, s) => typeLabel(s) },
            {
              key: 'hidden',
              title: t('types.hidden'),
              width: 100,
              render: (_, s) => (
                <Switch
                  size="small"
                  checked={s.hidden}
                  disabled={!s.available || save.isPending}
                  aria-label={t('types.hiddenToggle', { name: typeLabel(s) })}
                  onChange={(hidden) => void act(() => save.mutateAsync({ ...inputOf(s), hidden }), t('saved'))}
                />
              ),
            },
            {
              key: 'category',
              title: t('types.category'),
              width: 130,
              render: (_, s) => (s.category ? categoryLabel(s.category.name) : '—'),
            },
            {
              key: 'slug',
              title: t('types.slug'),
              width: 150,
              render: (_, s) => (
                <Space size={4} wrap>
                  <Typography.Text code>{s.slug}</Typography.Text>
                  {!s.available && <Tag color="orange">{t('types.unavailable')}</Tag>}
                </Space>
              ),
            },
            {
              key: 'destinations',
              title: t('types.destinations'),
              render: (_, s) =>
                s.kind === 'destination' ? (
                  '—'
                ) : (
                  <TagRow items={s.destinations.map((d) => ({ key: d.slug, label: nameOf(d.slug) }))} />
                ),
            },
            {
              key: 'tags',
              title: t('types.tags'),
              width: 150,
              render: (_, s) => <TagRow items={s.tags.map((tag) => ({ key: tag, label: tagLabel(tag) }))} />,
            },
            {
              key: 'modules',
              title: t('types.modules'),
              width: 150,
              render: (_, s) =>
                s.modules.length ? (
                  <ol className="lr-catalogue-modules">
                    {s.modules.map((m) => (
                      // A module's name is the operator's own words, in whatever language they were typed: data.
                      <li key={m._id} translate="no">
                        {m.name}
                      </li>
                    ))}
                  </ol>
                ) : (
                  '—'
                ),
            },
            {
              key: 'actions',
              title: t('actions'),
              fixed: 'right',
              width: 96,
              render: (_, s) => (
                <Space>
                  <Button
                    size="small"
                    icon={<EditOutlined aria-hidden />}
                    aria-label={t('edit')}
                    onClick={() => setEditing(s)}
                  />
                  <Popconfirm
                    title={t('types.deleteConfirm', { name: typeLabel(s) })}
                    okText={t('delete')}
                    cancelText={t('cancel')}
                    onConfirm={() => act(() => remove.mutateAsync(s._id), t('deleted'))}
                  >
                    <Button size="small" danger icon={<DeleteOutlined aria-hidden />} aria-label={t('delete')} />
                  </Popconfirm>
                </Space>
              ),
            },
          ]}
        />
      )}
      <CatalogueSettingModal setting={editing} all={all} onClose={() => setEditing(undefined)} />
    </div>
  );
}
