import type { Setting } from '@leadrelay/shared';
import { Form, Input, Select, Switch } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../lib/errors';
import { applyServerErrors } from '../../../lib/form';
import { categoryLabel, tagLabel, typeLabel } from '../../../lib/integrations/catalogue';
import { useCategoriesQuery } from '../../../lib/integrations/queries';
import { useApp } from '../../../lib/use-app';
import { useSaveSettingMutation } from '../catalogue-queries';
import { CatalogueFormModal } from './catalogue-parts';

interface Props {
  /** undefined: closed; null: a new type. */
  setting: Setting | null | undefined;
  /** Every type, for the destinations a source may send to. */
  all: Setting[];
  onClose: () => void;
}

interface Values {
  slug: string;
  name: string;
  kind: 'source' | 'destination';
  categoryId: string | null;
  hidden: boolean;
  destinations: string[];
  tags: string[];
}

/** Create or edit an integration type; its slug and kind are fixed once created. */
export function CatalogueSettingModal({ setting, all, onClose }: Props) {
  const { t } = useTranslation('catalogue');
  const { message } = useApp();
  const [form] = Form.useForm<Values>();
  const categories = useCategoriesQuery();
  const save = useSaveSettingMutation();
  const open = setting !== undefined;
  const kind = Form.useWatch('kind', form);

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue({
      slug: setting?.slug ?? '',
      name: setting?.name ?? '',
      kind: setting?.kind ?? 'source',
      categoryId: setting?.category?._id ?? null,
      hidden: setting?.hidden ?? false,
      destinations: setting?.destinations.map((d) => d.slug) ?? [],
      tags: setting?.tags ?? [],
    });
  }, [open, setting, form]);

  const submit = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    try {
      await save.mutateAsync({ ...values, ...(setting ? { id: setting._id } : {}) });
      void message.success(t('saved'));
      onClose();
    } catch (err) {
      if (!applyServerErrors(form, err)) void message.error(errorMessage(err));
    }
  };

  const destinationTypes = all.filter((s) => s.kind === 'destination');
  return (
    <CatalogueFormModal
      open={open}
      title={setting ? t('types.edit') : t('types.create')}
      form={form}
      pending={save.isPending}
      onCancel={onClose}
      onSubmit={() => void submit()}
    >
      <Form.Item
        name="slug"
        label={t('types.slug')}
        rules={[{ required: true, pattern: /^[a-z][a-z0-9-]{0,49}$/, message: t('types.slugRule') }]}
      >
        <Input disabled={!!setting} placeholder="my-crm" />
      </Form.Item>
      <Form.Item
        name="name"
        label={t('types.name')}
        rules={[{ required: true, whitespace: true, message: t('required') }]}
      >
        <Input maxLength={100} />
      </Form.Item>
      <Form.Item name="kind" label={t('types.kind')}>
        <Select
          disabled={!!setting}
          options={[
            { value: 'source', label: t('types.kinds.source') },
            { value: 'destination', label: t('types.kinds.destination') },
          ]}
        />
      </Form.Item>
      <Form.Item name="categoryId" label={t('types.category')}>
        <Select
          allowClear
          placeholder={t('types.noCategory')}
          options={(categories.data ?? []).map((c) => ({ value: c._id, label: categoryLabel(c.name) }))}
        />
      </Form.Item>
      {kind === 'source' && (
        <Form.Item name="destinations" label={t('types.destinations')}>
          <Select mode="multiple" options={destinationTypes.map((d) => ({ value: d.slug, label: typeLabel(d) }))} />
        </Form.Item>
      )}
      <Form.Item name="tags" label={t('types.tags')}>
        <Select
          mode="tags"
          tokenSeparators={[',']}
          open={false}
          suffixIcon={null}
          labelRender={(tag) => tagLabel(String(tag.value))}
        />
      </Form.Item>
      <Form.Item name="hidden" label={t('types.hidden')} valuePropName="checked">
        <Switch />
      </Form.Item>
    </CatalogueFormModal>
  );
}
