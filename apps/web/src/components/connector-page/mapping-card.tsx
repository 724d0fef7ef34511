import type { MappingCard, MappingTarget } from '@leadrelay/connectors/manifest';
import type { Integration } from '@leadrelay/shared';
import { Button, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useConnectorLists } from '../../lib/connectors/queries';
import { PermissionGuard } from '../permission-guard';
import { DataCard } from './data-card';
import { EnumEditor, type EnumPair } from './enum-editor';
import { type FieldGroup, FieldMappingEditor, invalidRows, type MappingRow, newRowKey } from './field-mapping-editor';
import { isVisible, type Values } from './field-values';
import { usePage } from './page-context';
import { useSaveSettingsPart } from './settings-part';

type Card = MappingCard<string>;
type Row = MappingRow<EnumPair[]>;

const asObject = (v: unknown): Values => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Values) : {});

/** The stored mappings (`settings.fields`) as rows; an entry of another shape is left out. */
function storedRows(card: Card, settings: Values): Row[] {
  const stored = Array.isArray(settings.fields) ? settings.fields.map(asObject) : [];
  const { key } = card.stored;
  return stored.flatMap((f) => {
    const target = f[key];
    if (typeof f.from !== 'string' || typeof f.entity !== 'string') return [];
    if (typeof target !== 'string' && typeof target !== 'number') return [];
    const enums = Object.entries(asObject(f.enums)).flatMap(([value, enumId]) =>
      typeof enumId === 'number' ? [{ key: newRowKey(), value, enumId }] : [],
    );
    return [{ key: newRowKey(), from: f.from, field: `${f.entity}:${target}`, extra: enums }];
  });
}

/** Rows → the settings' `fields`, as the connector reads them. */
function toFields(card: Card, rows: Row[]): Values[] {
  const { key, numeric, enums } = card.stored;
  return rows.map((r) => {
    const field = r.field as string;
    const at = field.indexOf(':');
    const target = field.slice(at + 1);
    const pairs = (r.extra ?? []).filter((p) => p.value.trim() && p.enumId);
    return Object.fromEntries([
      ['from', r.from.trim()],
      ['entity', field.slice(0, at)],
      [key, numeric ? Number(target) : target],
      ...(enums && pairs.length
        ? [['enums', Object.fromEntries(pairs.map((p) => [p.value.trim(), p.enumId as number]))]]
        : []),
    ]);
  });
}

/**
 * Our lead's fields → the CRM's own fields (from its loaders, one group per entity); a list field's
 * values → its options where the manifest keeps them. A save with a bad row marks it instead.
 */
export function MappingCardView({ integration, card }: { integration: Integration; card: Card }) {
  const { t } = useTranslation('crm');
  const { say } = usePage();
  const settings = integration.settings as Values;
  const groups = card.groups.filter((g) => isVisible({ visibleWhen: g.when }, settings));
  const lists = [...new Set(groups.map((g) => g.list))];
  const answers = useConnectorLists(integration, lists);
  const save = useSaveSettingsPart(integration);
  const [rows, setRows] = useState<Row[]>(() => storedRows(card, settings));
  const [invalid, setInvalid] = useState<Set<string>>(new Set());

  const byValue = new Map<string, MappingTarget>();
  const fieldGroups: FieldGroup[] = groups.map((g) => ({
    label: say(g.label),
    options: g.read(answers[lists.indexOf(g.list)]?.data).map((f) => {
      byValue.set(`${g.entity}:${f.key}`, f);
      return { value: `${g.entity}:${f.key}`, label: f.name };
    }),
  }));

  const onSave = () => {
    const bad = invalidRows(rows);
    setInvalid(bad);
    if (bad.size) return;
    void save.run({ fields: toFields(card, rows) });
  };

  return (
    <DataCard integration={integration} title={t('mapping.title')} queries={answers}>
      <Typography.Paragraph type="secondary" className="lr-hint">
        {say(card.hint)}
      </Typography.Paragraph>
      <FieldMappingEditor<EnumPair[]>
        rows={rows}
        onChange={setRows}
        groups={fieldGroups}
        max={card.max}
        invalid={invalid}
        renderExtra={
          card.stored.enums
            ? (row, update) => {
                const field = row.field ? byValue.get(row.field) : undefined;
                if (!field?.enums?.length) return null;
                return <EnumEditor field={field} pairs={row.extra ?? []} onChange={update} />;
              }
            : undefined
        }
      />
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
    </DataCard>
  );
}
