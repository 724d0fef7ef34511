import type { Integration } from '@leadrelay/shared';
import { Typography } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CrmDataCard, type Loadable } from './crm-data-card';
import { type FieldGroup, FieldMappingEditor, invalidRows, type MappingRow } from './field-mapping-editor';
import { SaveFooter } from './settings-form-items';
import { useSaveSettingsPart } from './settings-save';

interface Props<Extra> {
  integration: Integration;
  hint: string;
  /** The CRM's field lists the groups come from. */
  queries: Loadable[];
  groups: FieldGroup[];
  max: number;
  /** The stored mappings as rows (read once, when the card mounts). */
  initialRows: () => MappingRow<Extra>[];
  /** Rows → the settings' `fields`, as the CRM's connector reads them. */
  toFields: (rows: MappingRow<Extra>[]) => unknown[];
  renderExtra?: (row: MappingRow<Extra>, update: (extra: Extra | undefined) => void) => ReactNode;
}

/** The field-mapping card of a CRM: rows against the CRM's own fields; a save with a bad row marks it instead. */
export function MappingCard<Extra>({
  integration,
  hint,
  queries,
  groups,
  max,
  initialRows,
  toFields,
  renderExtra,
}: Props<Extra>) {
  const { t } = useTranslation('crm');
  const save = useSaveSettingsPart(integration);
  const [rows, setRows] = useState<MappingRow<Extra>[]>(initialRows);
  const [invalid, setInvalid] = useState<Set<string>>(new Set());

  const onSave = () => {
    const bad = invalidRows(rows);
    setInvalid(bad);
    if (bad.size) return;
    void save.run({ fields: toFields(rows) });
  };

  return (
    <CrmDataCard integration={integration} title={t('mapping.title')} queries={queries}>
      <Typography.Paragraph type="secondary" className="lr-hint">
        {hint}
      </Typography.Paragraph>
      <FieldMappingEditor<Extra>
        rows={rows}
        onChange={setRows}
        groups={groups}
        max={max}
        invalid={invalid}
        renderExtra={renderExtra}
      />
      {invalid.size > 0 && (
        <Typography.Paragraph type="danger" className="lr-mt" role="alert">
          {t('mapping.invalid')}
        </Typography.Paragraph>
      )}
      <SaveFooter isPending={save.isPending} onSave={onSave} className="lr-actions lr-mt" />
    </CrmDataCard>
  );
}
