import { ArrowRightOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Empty, Select, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { isLeadPath, LeadPathInput } from '../integrations/lead-path-input';

export interface MappingRow<Extra = unknown> {
  key: string;
  /** Our lead field (ZLeadPath). */
  from: string;
  /** The CRM field: "<entity>:<field id or key>". */
  field?: string;
  extra?: Extra;
}

export interface FieldGroup {
  label: string;
  options: { value: string; label: string }[];
}

let seq = 0;
export const newRowKey = () => `row-${++seq}`;

/** Rows a save would refuse: no lead field, an unknown lead field, or no CRM field. */
export function invalidRows(rows: readonly MappingRow[]): Set<string> {
  return new Set(rows.filter((r) => !isLeadPath(r.from.trim()) || !r.field).map((r) => r.key));
}

interface Props<Extra> {
  rows: MappingRow<Extra>[];
  onChange: (rows: MappingRow<Extra>[]) => void;
  groups: FieldGroup[];
  max: number;
  /** Rows marked after a refused save. */
  invalid: Set<string>;
  /** Under a row: a list field's values → its options. */
  renderExtra?: (row: MappingRow<Extra>, update: (extra: Extra | undefined) => void) => ReactNode;
}

/** Rows {our lead field → CRM field}; the CRM fields come from the CRM itself. */
export function FieldMappingEditor<Extra>({ rows, onChange, groups, max, invalid, renderExtra }: Props<Extra>) {
  const { t } = useTranslation('crm');
  const patch = (key: string, change: Partial<MappingRow<Extra>>) =>
    onChange(rows.map((r) => (r.key === key ? { ...r, ...change } : r)));
  const known = new Set(groups.flatMap((g) => g.options.map((o) => o.value)));

  return (
    <div>
      {rows.length === 0 && <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('mapping.empty')} />}
      {rows.map((row, index) => {
        const bad = invalid.has(row.key);
        const missing = row.field !== undefined && !known.has(row.field);
        return (
          <div key={row.key} className="lr-crm-row" data-testid="mapping-row">
            <div className="lr-crm-row-main">
              <LeadPathInput
                value={row.from}
                onChange={(from) => patch(row.key, { from })}
                invalid={bad && !isLeadPath(row.from.trim())}
                label={t('mapping.fromLabel', { n: index + 1 })}
              />
              <ArrowRightOutlined className="lr-crm-arrow" aria-hidden />
              <Select
                className="lr-crm-to"
                value={row.field}
                status={(bad && !row.field) || missing ? 'error' : undefined}
                placeholder={t('mapping.toPlaceholder')}
                aria-label={t('mapping.toLabel', { n: index + 1 })}
                showSearch={{ optionFilterProp: 'label' }}
                options={
                  missing
                    ? [
                        ...groups,
                        {
                          label: t('mapping.gone'),
                          options: [{ value: row.field as string, label: row.field as string }],
                        },
                      ]
                    : groups
                }
                onChange={(field: string) => patch(row.key, { field, extra: undefined })}
              />
              <Button
                type="text"
                danger
                icon={<DeleteOutlined aria-hidden />}
                aria-label={t('mapping.remove', { n: index + 1 })}
                onClick={() => onChange(rows.filter((r) => r.key !== row.key))}
              />
            </div>
            {missing && (
              <Typography.Text type="danger" className="lr-hint">
                {t('mapping.goneHint')}
              </Typography.Text>
            )}
            {renderExtra?.(row, (extra) => patch(row.key, { extra }))}
          </div>
        );
      })}
      {rows.length < max && (
        <Button
          icon={<PlusOutlined aria-hidden />}
          onClick={() => onChange([...rows, { key: newRowKey(), from: '' }])}
          className="lr-mt"
        >
          {t('mapping.add')}
        </Button>
      )}
    </div>
  );
}
