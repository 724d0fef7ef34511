import type { Module } from '@leadrelay/shared';
import { Empty, Form, Input, Select, Skeleton, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { errorMessage } from '../../../lib/errors';
import { applyServerErrors } from '../../../lib/form';
import { typeLabel } from '../../../lib/integrations/catalogue';
import { useCatalogueQuery } from '../../../lib/integrations/queries';
import {
  useDeleteModuleMutation,
  useModulesQuery,
  useSaveModuleMutation,
  useSortModulesMutation,
} from '../catalogue-queries';
import { CatalogueFormModal, CataloguePageHead } from '../components/catalogue-parts';
import { SortableModules } from '../components/sortable-modules';
import '../catalogue.css';
import { useApp } from '../../../lib/use-app';

/** /admin/super/integrations/modules: the modules of one integration type, ordered by drag and drop. */
export function CatalogueModulesPage() {
  const { t } = useTranslation('catalogue');
  const { message } = useApp();
  const types = useCatalogueQuery();
  // The chosen type is kept in the URL (?type=…): a reload or a shared link opens the same list.
  const [params, setParams] = useSearchParams();
  const settingId = params.get('type') || types.data?.[0]?._id;
  const setTypeParam = (id: string) => setParams({ type: id }, { replace: true });
  const modules = useModulesQuery(settingId);
  const sort = useSortModulesMutation(settingId ?? '');
  const save = useSaveModuleMutation();
  const remove = useDeleteModuleMutation();
  const [editing, setEditing] = useState<Module | null>();
  const [form] = Form.useForm<{ name: string; slug: string }>();

  useEffect(() => {
    if (editing !== undefined) form.setFieldsValue({ name: editing?.name ?? '', slug: editing?.slug ?? '' });
  }, [editing, form]);

  const submit = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values || !settingId) return;
    try {
      await save.mutateAsync({ id: editing?._id, settingId, name: values.name, slug: values.slug.trim() || null });
      void message.success(t('saved'));
      setEditing(undefined);
    } catch (err) {
      if (!applyServerErrors(form, err)) void message.error(errorMessage(err));
    }
  };
  const onSort = (ordered: Module[]) =>
    sort.mutate(ordered, {
      onSuccess: () => void message.success(t('modules.sorted')),
      onError: (err) => void message.error(errorMessage(err)),
    });
  const onDelete = async (m: Module) => {
    try {
      await remove.mutateAsync(m._id);
      void message.success(t('deleted'));
    } catch (err) {
      void message.error(errorMessage(err));
    }
  };

  return (
    <div className="lr-page">
      <CataloguePageHead
        title={t('modules.title')}
        createLabel={t('modules.create')}
        disabled={!settingId}
        onCreate={() => setEditing(null)}
      />
      <Typography.Paragraph type="secondary">{t('modules.subtitle')}</Typography.Paragraph>
      <Select
        style={{ width: 280, maxWidth: '100%', marginBottom: 16 }}
        aria-label={t('modules.type')}
        loading={types.isPending}
        value={settingId}
        onChange={(id: string) => setTypeParam(id)}
        options={(types.data ?? []).map((s) => ({
          value: s._id,
          // The slug as a code beside the name: a technical detail, found by search too.
          label: (
            <>
              {typeLabel(s)} <Typography.Text code>{s.slug}</Typography.Text>
            </>
          ),
          search: `${typeLabel(s)} ${s.slug}`,
        }))}
        showSearch={{ optionFilterProp: 'search' }}
      />
      {modules.isError && <Typography.Paragraph type="danger">{errorMessage(modules.error)}</Typography.Paragraph>}
      {modules.isPending && settingId ? (
        <Skeleton active />
      ) : (modules.data ?? []).length === 0 ? (
        <Empty description={t('modules.empty')} />
      ) : (
        <SortableModules modules={modules.data ?? []} onSort={onSort} onEdit={setEditing} onDelete={onDelete} />
      )}
      <CatalogueFormModal
        open={editing !== undefined}
        title={editing ? t('modules.edit') : t('modules.create')}
        form={form}
        pending={save.isPending}
        onCancel={() => setEditing(undefined)}
        onSubmit={() => void submit()}
      >
        <Form.Item
          name="name"
          label={t('modules.name')}
          rules={[{ required: true, whitespace: true, message: t('required') }]}
        >
          <Input maxLength={100} />
        </Form.Item>
        <Form.Item
          name="slug"
          label={t('modules.slug')}
          rules={[{ pattern: /^([a-z][a-z0-9-]{0,49})?$/, message: t('types.slugRule') }]}
        >
          <Input placeholder="mapping" />
        </Form.Item>
      </CatalogueFormModal>
    </div>
  );
}
