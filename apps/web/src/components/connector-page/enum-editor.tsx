import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import type { MappingTarget } from '@leadrelay/connectors/manifest';
import { Button, Input, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { newRowKey } from './field-mapping-editor';

export type EnumPair = { key: string; value: string; enumId?: number };

/** Our value → a list field's option; values not listed are skipped by the connector. */
export function EnumEditor({
  field,
  pairs,
  onChange,
}: {
  field: MappingTarget;
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
