import { type Integration, type UspacyEntity, type UspacyFieldMapping, ZUspacySettings } from '@leadrelay/shared';
import { useTranslation } from 'react-i18next';
import { useUspacyFields } from '../queries';
import type { FieldGroup, MappingRow } from './field-mapping-editor';
import { newRowKey } from './field-mapping-editor';
import { MappingCard } from './mapping-card';

const MAX = 50;

export function toUspacyMappings(rows: MappingRow[]): UspacyFieldMapping[] {
  return rows.map((r) => {
    const field = r.field as string;
    const at = field.indexOf(':');
    return { from: r.from.trim(), entity: field.slice(0, at) as UspacyEntity, code: field.slice(at + 1) };
  });
}

/** Uspacy field mapping against the portal's real fields: the chosen record's (lead or deal) and the contact's. */
export function UspacyFieldsCard({ integration }: { integration: Integration }) {
  const { t } = useTranslation('crm');
  const fields = useUspacyFields(integration);
  const stored = ZUspacySettings.safeParse(integration.settings);
  const target = stored.success ? stored.data.target : 'lead';
  const groups: FieldGroup[] = ([target, 'contact'] as const).map((entity) => ({
    label: t(`uspacy.groups.${entity}`),
    options: (fields.data?.[entity] ?? []).map((f) => ({ value: `${entity}:${f.code}`, label: f.name })),
  }));

  return (
    <MappingCard
      integration={integration}
      hint={t('mapping.hintUspacy')}
      queries={[fields]}
      groups={groups}
      max={MAX}
      initialRows={() =>
        (stored.success ? (stored.data.fields ?? []) : []).map((f) => ({
          key: newRowKey(),
          from: f.from,
          field: `${f.entity}:${f.code}`,
        }))
      }
      toFields={toUspacyMappings}
    />
  );
}
