import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { type AmoField, type AmoFieldMapping, type Integration, ZAmoSettings } from '@leadrelay/shared';
import { Button, Input, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useAmoFields } from '../queries';
import { type FieldGroup, type MappingRow, newRowKey } from './field-mapping-editor';
import { MappingCard } from './mapping-card';

type EnumPair = { key: string; value: string; enumId?: number };
type Row = MappingRow<EnumPair[]>;
const MAX = 40;

function toRows(fields: AmoFieldMapping[] | undefined): Row[] {
  return (fields ?? []).map((f) => ({
    key: newRowKey(),
    from: f.from,
    field: `${f.entity}:${f.fieldId}`,
    extra: Object.entries(f.enums ?? {}).map(([value, enumId]) => ({ key: newRowKey(), value, enumId })),
  }));
}

export function toMappings(rows: Row[]): AmoFieldMapping[] {
  return rows.map((r) => {
    const [entity, id] = (r.field as string).split(':') as ['lead' | 'contact', string];
    const pairs = (r.extra ?? []).filter((p) => p.value.trim() && p.enumId);
    return {
      from: r.from.trim(),
      entity,
      fieldId: Number(id),
      ...(pairs.length ? { enums: Object.fromEntries(pairs.map((p) => [p.value.trim(), p.enumId as number])) } : {}),
    };
  });
}

/** Our value → the select field's option; values not listed are skipped by the connector. */
function EnumEditor({
  field,
  pairs,
  onChange,
}: {
  field: AmoField;
  pairs: EnumPair[];
  onChange: (p: EnumPair[]) => void;
}) {
  const { t } = useTranslation('crm');
  const patch = (key: string, change: Partial<EnumPair>) =>
    onChange(pairs.map((p) => (p.key === key ? { ...p, ...change } : p)));
  return (
    <div className="lr-crm-enums">
      <Typography.Text type="secondary" className="lr-hint">
        {t('mapping.enumsHint', { field: field.name })}
      </Typography.Text>
      {pairs.map((p) => (
        <div key={p.key} className="lr-crm-enum-row">
          <Input
            value={p.value}
            placeholder={t('mapping.enumValue')}
            aria-label={t('mapping.enumValue')}
            onChange={(e) => patch(p.key, { value: e.target.value })}
            className="lr-grow"
          />
          <Select
            value={p.enumId}
            placeholder={t('mapping.enumOption')}
            aria-label={t('mapping.enumOption')}
            options={(field.enums ?? []).map((e) => ({ value: e.id, label: e.value }))}
            onChange={(enumId: number) => patch(p.key, { enumId })}
            className="lr-grow"
          />
          <Button
            type="text"
            icon={<DeleteOutlined aria-hidden />}
            aria-label={t('mapping.enumRemove')}
            onClick={() => onChange(pairs.filter((x) => x.key !== p.key))}
          />
        </div>
      ))}
      <Button
        size="small"
        type="dashed"
        icon={<PlusOutlined aria-hidden />}
        onClick={() => onChange([...pairs, { key: newRowKey(), value: '' }])}
      >
        {t('mapping.enumAdd')}
      </Button>
    </div>
  );
}

/** amoCRM field mapping against the account's real lead and contact fields. */
export function AmoFieldsCard({ integration }: { integration: Integration }) {
  const { t } = useTranslation('crm');
  const fields = useAmoFields(integration);
  const byValue = new Map<string, AmoField>();
  const group = (entity: 'lead' | 'contact', list: AmoField[]): FieldGroup => ({
    label: t(`mapping.groups.${entity}`),
    options: list.map((f) => {
      byValue.set(`${entity}:${f.id}`, f);
      return { value: `${entity}:${f.id}`, label: f.name };
    }),
  });
  const groups = fields.data ? [group('lead', fields.data.lead), group('contact', fields.data.contact)] : [];

  return (
    <MappingCard<EnumPair[]>
      integration={integration}
      hint={t('mapping.hintAmo')}
      queries={[fields]}
      groups={groups}
      max={MAX}
      initialRows={() => {
        const stored = ZAmoSettings.shape.fields.safeParse(integration.settings.fields);
        return toRows(stored.success ? stored.data : undefined);
      }}
      toFields={toMappings}
      renderExtra={(row, update) => {
        const field = row.field ? byValue.get(row.field) : undefined;
        if (!field?.enums?.length) return null;
        return <EnumEditor field={field} pairs={row.extra ?? []} onChange={update} />;
      }}
    />
  );
}
