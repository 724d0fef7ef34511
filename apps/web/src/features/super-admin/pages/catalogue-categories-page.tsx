import { DeleteOutlined, EditOutlined } from '@ant-design/icons';
import type { Category } from '@leadrelay/shared';
import { Button, Form, Input, Popconfirm, Space, Table, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../lib/errors';
import { applyServerErrors } from '../../../lib/form';
import { categoryLabel } from '../../../lib/integrations/catalogue';
import { useCatalogueQuery, useCategoriesQuery } from '../../../lib/integrations/queries';
import { useApp } from '../../../lib/use-app';
import { useDeleteCategoryMutation, useSaveCategoryMutation } from '../catalogue-queries';
import { CatalogueFormModal, CataloguePageHead } from '../components/catalogue-parts';

/** /admin/super/integrations/categories: the groups integration types are shown in. */
export function CatalogueCategoriesPage() {
  const { t } = useTranslation('catalogue');
  const { message } = useApp();
  const categories = useCategoriesQuery();
  const types = useCatalogueQuery();
  const save = useSaveCategoryMutation();
  const remove = useDeleteCategoryMutation();
  const [editing, setEditing] = useState<Category | null>();
  const [form] = Form.useForm<{ name: string }>();
  const countOf = (id: string) => (types.data ?? []).filter((s) => s.category?._id === id).length;

  useEffect(() => {
    if (editing !== undefined) form.setFieldsValue({ name: editing?.name ?? '' });
  }, [editing, form]);

  const submit = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    try {
      await save.mutateAsync({ id: editing?._id, name: values.name });
      void message.success(t('saved'));
      setEditing(undefined);
    } catch (err) {
      if (!applyServerErrors(form, err)) void message.error(errorMessage(err));
    }
  };
  const onDelete = async (c: Category) => {
    try {
      await remove.mutateAsync(c._id);
      void message.success(t('deleted'));
    } catch (err) {
      void message.error(errorMessage(err));
    }
  };

  return (
    <div className="lr-page">
      <CataloguePageHead
        title={t('categories.title')}
        createLabel={t('categories.create')}
        onCreate={() => setEditing(null)}
      />
      {categories.isError && (
        <Typography.Paragraph type="danger">{errorMessage(categories.error)}</Typography.Paragraph>
      )}
      <Table<Category>
        rowKey="_id"
        loading={categories.isPending}
        dataSource={categories.data ?? []}
        pagination={false}
        locale={{ emptyText: t('categories.empty') }}
        columns={[
          { key: 'name', title: t('categories.name'), render: (_, c) => categoryLabel(c.name) },
          { key: 'types', title: t('categories.types'), width: 120, render: (_, c) => countOf(c._id) },
          {
            key: 'actions',
            title: t('actions'),
            width: 110,
            render: (_, c) => (
              <Space>
                <Button
                  size="small"
                  icon={<EditOutlined aria-hidden />}
                  aria-label={t('edit')}
                  onClick={() => setEditing(c)}
                />
                <Popconfirm
                  title={t('categories.deleteConfirm', { name: categoryLabel(c.name) })}
                  okText={t('delete')}
                  cancelText={t('cancel')}
                  onConfirm={() => onDelete(c)}
                >
                  <Button size="small" danger icon={<DeleteOutlined aria-hidden />} aria-label={t('delete')} />
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      <CatalogueFormModal
        open={editing !== undefined}
        title={editing ? t('categories.edit') : t('categories.create')}
        form={form}
        pending={save.isPending}
        onCancel={() => setEditing(undefined)}
        onSubmit={() => void submit()}
      >
        <Form.Item
          name="name"
          label={t('categories.name')}
          rules={[{ required: true, whitespace: true, message: t('required') }]}
        >
          <Input maxLength={100} />
        </Form.Item>
      </CatalogueFormModal>
    </div>
  );
}
