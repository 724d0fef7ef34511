import { type Integration, type PipedriveFieldMapping, ZPipedriveSettings } from '@leadrelay/shared';
import { Button, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PermissionGuard } from '../../../components/permission-guard';
import { usePipedriveFields } from '../queries';
import { CrmDataCard } from './crm-data-card';
import { type FieldGroup, FieldMappingEditor, invalidRows, type MappingRow, newRowKey } from './field-mapping-editor';
import { useSaveSettingsPart } from './settings-save';

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
  const save = useSaveSettingsPart(integration);
  const stored = ZPipedriveSettings.shape.fields.safeParse(integration.settings.fields);
  const [rows, setRows] = useState<MappingRow[]>(() =>
    (stored.success ? (stored.data ?? []) : []).map((f) => ({
      key: newRowKey(),
      from: f.from,
      field: `${f.entity}:${f.key}`,
    })),
  );
  const [invalid, setInvalid] = useState<Set<string>>(new Set());
  const loaded = { person: person.data, organization: organization.data, deal: deal.data };
  const groups: FieldGroup[] = ENTITIES.map((entity) => ({
    label: t(`mapping.groups.${entity}`),
    options: (loaded[entity] ?? []).map((f) => ({ value: `${entity}:${f.key}`, label: f.name })),
  }));

  const onSave = () => {
    const bad = invalidRows(rows);
    setInvalid(bad);
    if (bad.size) return;
    void save.run({ fields: toPipedriveMappings(rows) });
  };

  return (
    <CrmDataCard integration={integration} title={t('mapping.title')} queries={[person, organization, deal]}>
      <Typography.Paragraph type="secondary" className="lr-hint">
        {t('mapping.hintPipedrive')}
      </Typography.Paragraph>
      <FieldMappingEditor rows={rows} onChange={setRows} groups={groups} max={MAX} invalid={invalid} />
      {invalid.size > 0 && (
        <Typography.Paragraph type="danger" className="lr-mt" role="alert">
          {t('mapping.invalid')}
        </Typography.Paragraph>
      )}
      <div className="lr-actions lr-mt">
        <PermissionGuard>
          <Button type="primary" onClick={onSave} loading={save.isPending}>
            {t('save')}
          </Button>
        </PermissionGuard>
      </div>
    </CrmDataCard>
  );
}
