import { type Integration, type PipedriveFieldMapping, ZPipedriveSettings } from '@leadrelay/shared';
import { useTranslation } from 'react-i18next';
import { usePipedriveFields } from '../queries';
import { type FieldGroup, type MappingRow, newRowKey } from './field-mapping-editor';
import { MappingCard } from './mapping-card';

const ENTITIES = ['person', 'organization', 'deal'] as const;
const MAX = 50;

export function toPipedriveMappings(rows: MappingRow[]): PipedriveFieldMapping[] {
  return rows.map((r) => {
    const field = r.field as string;
    const at = field.indexOf(':');
    return {
      from: r.from.trim(),
      entity: field.slice(0, at) as PipedriveFieldMapping['entity'],
      key: field.slice(at + 1),
    };
  });
}

/** Pipedrive field mapping against the company's real person, organization and deal fields. */
export function PipedriveFieldsCard({ integration }: { integration: Integration }) {
  const { t } = useTranslation('crm');
  const person = usePipedriveFields(integration, 'person');
  const organization = usePipedriveFields(integration, 'organization');
  const deal = usePipedriveFields(integration, 'deal');
  const loaded = { person: person.data, organization: organization.data, deal: deal.data };
  const groups: FieldGroup[] = ENTITIES.map((entity) => ({
    label: t(`mapping.groups.${entity}`),
    options: (loaded[entity] ?? []).map((f) => ({ value: `${entity}:${f.key}`, label: f.name })),
  }));

  return (
    <MappingCard
      integration={integration}
      hint={t('mapping.hintPipedrive')}
      queries={[person, organization, deal]}
      groups={groups}
      max={MAX}
      initialRows={() => {
        const stored = ZPipedriveSettings.shape.fields.safeParse(integration.settings.fields);
        return (stored.success ? (stored.data ?? []) : []).map((f) => ({
          key: newRowKey(),
          from: f.from,
          field: `${f.entity}:${f.key}`,
        }));
      }}
      toFields={toPipedriveMappings}
    />
  );
}
