import { SearchOutlined } from '@ant-design/icons';
import { type Integration, type Setting, ZCreateIntegrationBody } from '@leadrelay/shared';
import { Alert, Button, Empty, Form, Input, Skeleton, Tag } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useConnectorWords } from '../../../components/connector-page/words';
import { TypeLogo } from '../../../components/integrations/type-logo';
import { useManifest } from '../../../lib/connectors/manifests';
import { errorMessage } from '../../../lib/errors';
import { applyServerErrors, zodRule } from '../../../lib/form';
import {
  categoryLabel,
  groupCatalogue,
  matchesSearch,
  tagLabel,
  typeDescription,
  typeLabel,
} from '../../../lib/integrations/catalogue';
import { useCatalogueQuery, useCategoriesQuery, useCreateIntegrationMutation } from '../../../lib/integrations/queries';
import { localePath } from '../../../lib/locale';
import { useApp } from '../../../lib/use-app';

interface Props {
  /** Preselects a type (e.g. the list filtered to one type, or "create an http destination"). */
  presetType?: string;
  /** Only types of this kind are offered. */
  kind?: Setting['kind'];
  onCreated: (integration: Integration) => void;
  onCancel?: () => void;
}

/** The catalogue picker: visible types grouped by category with tags, then a name, then create. */
export function CreateIntegrationForm({ presetType, kind, onCreated, onCancel }: Props) {
  const { t } = useTranslation('integrations');
  const { t: tc } = useTranslation('common');
  const { message } = useApp();
  const catalogue = useCatalogueQuery();
  const categories = useCategoriesQuery();
  const create = useCreateIntegrationMutation();
  const [form] = Form.useForm<{ name: string }>();
  const [type, setType] = useState<string | undefined>(presetType);
  const [search, setSearch] = useState('');
  // A type whose integration needs choices a name cannot carry (a page's lead form: a connector with
  // account connections) is made on its own list page.
  const manifest = useManifest(type ?? '');
  const guided = manifest?.accounts ? `/admin/integrations/${manifest.accounts.listPath}` : null;
  const say = useConnectorWords(type ?? '');

  const allGroups = useMemo(
    () =>
      groupCatalogue(
        (catalogue.data ?? []).filter((s) => !kind || s.kind === kind),
        categories.data,
      ),
    [catalogue.data, categories.data, kind],
  );
  const groups = useMemo(
    () =>
      allGroups
        .map((g) => ({ ...g, types: g.types.filter((s) => matchesSearch(s, search, categoryLabel(g.name))) }))
        .filter((g) => g.types.length > 0),
    [allGroups, search],
  );
  const selected = catalogue.data?.find((s) => s.slug === type);

  // The name starts as the type's name; the user's own text is never overwritten.
  useEffect(() => {
    if (selected && !form.isFieldTouched('name')) form.setFieldValue('name', typeLabel(selected));
  }, [selected, form]);

  const onFinish = async ({ name }: { name: string }) => {
    if (!type) return;
    try {
      const created = await create.mutateAsync({ type, name: name.trim() });
      void message.success(t('create.created'));
      onCreated(created);
    } catch (err) {
      if (!applyServerErrors(form, err)) void message.error(errorMessage(err));
    }
  };

  if (catalogue.isPending) return <Skeleton active />;
  if (catalogue.isError) return <Alert type="error" showIcon title={errorMessage(catalogue.error)} />;
  if (allGroups.length === 0) return <Empty description={t('create.noTypes')} />;

  return (
    <div className="lr-picker">
      <Input
        className="lr-picker-search"
        type="search"
        allowClear
        prefix={<SearchOutlined aria-hidden="true" />}
        placeholder={t('create.search')}
        aria-label={t('create.search')}
        value={search}
        onChange={(e) => setSearch(e.target.value)}
      />
      {groups.length === 0 && (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('create.nothingFound', { query: search.trim() })} />
      )}
      {groups.map((group) => (
        <fieldset key={group.key} className="lr-picker-group">
          <legend className="lr-picker-title">{categoryLabel(group.name)}</legend>
          <div className="lr-picker-grid">
            {group.types.map((s) => (
              <label key={s.slug} className={`lr-picker-type${type === s.slug ? ' is-selected' : ''}`}>
                <input
                  type="radio"
                  name="lr-integration-type"
                  value={s.slug}
                  checked={type === s.slug}
                  onChange={() => setType(s.slug)}
                  className="lr-visually-hidden"
                />
                <TypeLogo slug={s.slug} />
                <span className="lr-picker-text">
                  <span className="lr-picker-name">{typeLabel(s)}</span>
                  {typeDescription(s.slug) && <span className="lr-picker-desc">{typeDescription(s.slug)}</span>}
                  <span className="lr-picker-tags">
                    <Tag color={s.kind === 'source' ? 'blue' : 'purple'}>{t(`kind.${s.kind}`)}</Tag>
                    {s.tags.map((tag) => (
                      <Tag key={tag}>{tagLabel(tag)}</Tag>
                    ))}
                  </span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>
      ))}
      {manifest === undefined ? null : guided ? (
        <Alert
          type="info"
          showIcon
          title={say('guided')}
          action={
            <Link to={localePath(guided)} onClick={onCancel}>
              {t('create.guidedGo')}
            </Link>
          }
        />
      ) : (
        <Form
          form={form}
          name="create-integration"
          layout="vertical"
          onFinish={onFinish}
          className="lr-picker-form"
          requiredMark={false}
        >
          <Form.Item
            name="name"
            label={t('create.name')}
            rules={[zodRule(ZCreateIntegrationBody.shape.name)]}
            extra={selected ? undefined : t('create.pickFirst')}
          >
            <Input maxLength={100} disabled={!selected} placeholder={t('create.namePlaceholder')} />
          </Form.Item>
          <div className="lr-actions">
            {onCancel && <Button onClick={onCancel}>{tc('cancel')}</Button>}
            <Button type="primary" htmlType="submit" disabled={!selected} loading={create.isPending}>
              {t('create.submit')}
            </Button>
          </div>
        </Form>
      )}
    </div>
  );
}
