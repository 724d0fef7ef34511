import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { FILTER_OPS, LEAD_FIELDS, TRANSFORMS, UTM_KEYS } from '@leadrelay/shared';
import { AutoComplete, Button, Checkbox, Input, InputNumber, Select, Typography } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { translateCode } from '../../lib/errors';
import { MappingDefaults } from './mapping-defaults';
import {
  type DraftErrors,
  emptyFilter,
  emptyRule,
  type FilterDraft,
  type OptionsDraft,
  type RuleDraft,
  VALUE_OPS,
} from './mapping-draft';

export const LEAD_FIELD_KEYS = [...LEAD_FIELDS, ...UTM_KEYS.map((k) => `utm.${k}`)];

interface Props {
  draft: OptionsDraft;
  errors: DraftErrors;
  /** Dotted paths of the sample payload, offered as sources. */
  paths: string[];
  onChange: (draft: OptionsDraft) => void;
}

function Field({
  label,
  error,
  children,
  wide,
}: {
  label: string;
  error?: string;
  children: ReactNode;
  wide?: boolean;
}) {
  return (
    <div className={`lr-map-field${wide ? ' is-wide' : ''}`}>
      <span className="lr-map-label">{label}</span>
      {children}
      {error && (
        <Typography.Text type="danger" className="lr-map-error" role="alert">
          {translateCode(error)}
        </Typography.Text>
      )}
    </div>
  );
}

/** Mapping rows (source field → lead field, default, transforms), filters and dedupe, as the options schema defines them. */
export function MappingEditor({ draft, errors, paths, onChange }: Props) {
  const { t } = useTranslation('integrations');
  const fieldLabel = (key: string) =>
    LEAD_FIELD_KEYS.includes(key) ? `${t(`fields.${key}` as 'fields.name')} · ${key}` : key;
  const leadOptions = LEAD_FIELD_KEYS.map((k) => ({ value: k, label: fieldLabel(k) }));
  const pathOptions = paths.map((p) => ({ value: p, label: p }));

  // A row just added says nothing is missing until the person has changed one of its fields:
  // "required" before anything was typed reads like a mistake already made. Saving stays blocked,
  // and the preview says an unfinished rule is left out.
  const [fresh, setFresh] = useState<ReadonlySet<string>>(() => new Set());
  const touched = (key: string) => {
    if (!fresh.has(key)) return;
    const next = new Set(fresh);
    next.delete(key);
    setFresh(next);
  };
  const add = (key: string) => setFresh(new Set(fresh).add(key));
  const setRule = (i: number, patch: Partial<RuleDraft>) => {
    touched(draft.mapping[i]?.key ?? '');
    onChange({ ...draft, mapping: draft.mapping.map((r, j) => (j === i ? { ...r, ...patch } : r)) });
  };
  const setFilter = (i: number, patch: Partial<FilterDraft>) => {
    touched(draft.filters[i]?.key ?? '');
    onChange({ ...draft, filters: draft.filters.map((f, j) => (j === i ? { ...f, ...patch } : f)) });
  };
  const autoFilter = (input: string, option?: { value: string }) =>
    (option?.value ?? '').toLowerCase().includes(input.toLowerCase());

  return (
    <div className="lr-map">
      <Typography.Title level={5}>{t('mapping.rulesTitle')}</Typography.Title>
      <Typography.Text strong>{t('mapping.defaults.title')}</Typography.Text>
      <MappingDefaults draft={draft} onChange={onChange} />
      <Typography.Text strong>{t('mapping.rulesSubtitle')}</Typography.Text>
      <Typography.Paragraph type="secondary" className="lr-hint">
        {draft.mapping.length === 0 ? t('mapping.noRules') : t('mapping.rulesHint')}
      </Typography.Paragraph>
      {draft.mapping.map((rule, i) => {
        const e = fresh.has(rule.key) ? {} : (errors.mapping[i] ?? {});
        const n = i + 1;
        return (
          <div key={rule.key} className="lr-map-row" data-testid="mapping-row">
            <Field label={t('mapping.from')} error={e.from} wide>
              <Select
                mode="tags"
                value={rule.from}
                onChange={(from: string[]) => setRule(i, { from })}
                options={pathOptions}
                placeholder={t('mapping.fromPlaceholder')}
                aria-label={t('mapping.fromRow', { n })}
                tokenSeparators={[',']}
              />
            </Field>
            <Field label={t('mapping.to')} error={e.to}>
              <AutoComplete
                value={rule.to}
                onChange={(to: string) => setRule(i, { to })}
                options={leadOptions}
                filterOption={autoFilter}
                placeholder="custom.city"
                aria-label={t('mapping.toRow', { n })}
              />
            </Field>
            <Field label={t('mapping.transform')} error={e.transform} wide>
              <Select
                mode="multiple"
                value={rule.transform}
                onChange={(transform: RuleDraft['transform']) => setRule(i, { transform })}
                options={TRANSFORMS.map((tr) => ({ value: tr, label: t(`transforms.${tr}`) }))}
                placeholder={t('mapping.noTransform')}
                aria-label={t('mapping.transformRow', { n })}
              />
            </Field>
            <Field label={t('mapping.default')} error={e.default}>
              <Input
                value={rule.default}
                onChange={(ev) => setRule(i, { default: ev.target.value })}
                placeholder={t('mapping.defaultPlaceholder')}
                aria-label={t('mapping.defaultRow', { n })}
                maxLength={1000}
              />
            </Field>
            {rule.from.length > 1 && (
              <Field label={t('mapping.separator')} error={e.separator}>
                <Input
                  value={rule.separator}
                  onChange={(ev) => setRule(i, { separator: ev.target.value })}
                  placeholder={t('mapping.separatorPlaceholder')}
                  aria-label={t('mapping.separatorRow', { n })}
                  maxLength={10}
                />
              </Field>
            )}
            <Button
              type="text"
              danger
              icon={<DeleteOutlined aria-hidden />}
              className="lr-map-remove"
              aria-label={t('mapping.removeRule', { n })}
              onClick={() => onChange({ ...draft, mapping: draft.mapping.filter((_r, j) => j !== i) })}
            />
          </div>
        );
      })}
      <Button
        icon={<PlusOutlined aria-hidden />}
        onClick={() => {
          const rule = emptyRule();
          add(rule.key);
          onChange({ ...draft, mapping: [...draft.mapping, rule] });
        }}
        disabled={draft.mapping.length >= 100}
      >
        {t('mapping.addRule')}
      </Button>

      <Typography.Title level={5} className="lr-map-section">
        {t('filters.title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary" className="lr-hint">
        {t('filters.hint')}
      </Typography.Paragraph>
      {draft.filters.map((filter, i) => {
        const e = fresh.has(filter.key) ? {} : (errors.filters[i] ?? {});
        const n = i + 1;
        return (
          <div key={filter.key} className="lr-map-row" data-testid="filter-row">
            <Field label={t('filters.field')} error={e.field} wide>
              <AutoComplete
                value={filter.field}
                onChange={(field: string) => setFilter(i, { field })}
                options={[...leadOptions, ...paths.map((p) => ({ value: `raw.${p}`, label: `raw.${p}` }))]}
                filterOption={autoFilter}
                placeholder="phone"
                aria-label={t('filters.fieldRow', { n })}
              />
            </Field>
            <Field label={t('filters.op')} error={e.op}>
              <Select
                value={filter.op}
                onChange={(op: FilterDraft['op']) => setFilter(i, { op })}
                options={FILTER_OPS.map((op) => ({ value: op, label: t(`ops.${op}`) }))}
                aria-label={t('filters.opRow', { n })}
              />
            </Field>
            {VALUE_OPS.includes(filter.op) && (
              <Field label={t('filters.value')} error={e.value}>
                <Input
                  value={filter.value}
                  onChange={(ev) => setFilter(i, { value: ev.target.value })}
                  aria-label={t('filters.valueRow', { n })}
                  maxLength={1000}
                />
              </Field>
            )}
            <div className="lr-map-field lr-map-check">
              <Checkbox checked={filter.negate} onChange={(ev) => setFilter(i, { negate: ev.target.checked })}>
                {t('filters.negate')}
              </Checkbox>
            </div>
            <Button
              type="text"
              danger
              icon={<DeleteOutlined aria-hidden />}
              className="lr-map-remove"
              aria-label={t('filters.remove', { n })}
              onClick={() => onChange({ ...draft, filters: draft.filters.filter((_f, j) => j !== i) })}
            />
          </div>
        );
      })}
      <Button
        icon={<PlusOutlined aria-hidden />}
        onClick={() => {
          const filter = emptyFilter();
          add(filter.key);
          onChange({ ...draft, filters: [...draft.filters, filter] });
        }}
        disabled={draft.filters.length >= 50}
      >
        {t('filters.add')}
      </Button>

      <Typography.Title level={5} className="lr-map-section">
        {t('dedupe.title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary" className="lr-hint">
        {t('dedupe.hint')}
      </Typography.Paragraph>
      <div className="lr-map-row is-plain">
        <Field label={t('dedupe.sourceIdField')} error={errors.dedupe.sourceIdField} wide>
          <AutoComplete
            value={draft.dedupe.sourceIdField}
            onChange={(sourceIdField: string) => onChange({ ...draft, dedupe: { ...draft.dedupe, sourceIdField } })}
            options={pathOptions}
            filterOption={autoFilter}
            placeholder="leadgen_id"
            aria-label={t('dedupe.sourceIdField')}
          />
        </Field>
        <Field label={t('dedupe.window')} error={errors.dedupe.bodyWindowHours}>
          <InputNumber
            min={1}
            max={168}
            precision={0}
            value={draft.dedupe.bodyWindowHours}
            onChange={(v) => onChange({ ...draft, dedupe: { ...draft.dedupe, bodyWindowHours: v ?? null } })}
            placeholder="24"
            aria-label={t('dedupe.window')}
            className="lr-full"
          />
        </Field>
      </div>
    </div>
  );
}
