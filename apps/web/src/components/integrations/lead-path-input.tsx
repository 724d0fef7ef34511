import { UTM_KEYS, ZLeadPath } from '@leadrelay/shared';
import { AutoComplete } from 'antd';
import { useTranslation } from 'react-i18next';

const BASE = ['name', 'phone', 'email', 'comment'] as const;

/** Whether a value names a field of our lead (name, phone, utm.source, custom.<key> …). */
export const isLeadPath = (value: string) => ZLeadPath.safeParse(value).success;

/** Our lead field: the fixed ones offered, a custom.<key> typed in (the CRM mappings, an event's parameters). */
export function LeadPathInput({
  value,
  onChange,
  invalid,
  label,
  className,
}: {
  value?: string;
  onChange?: (v: string) => void;
  invalid?: boolean;
  label: string;
  className?: string;
}) {
  const { t } = useTranslation('integrations');
  const options = [
    ...BASE.map((k) => ({ value: k, label: `${t(`leadPaths.${k}`)} · ${k}` })),
    ...UTM_KEYS.map((k) => ({ value: `utm.${k}`, label: `UTM ${k} · utm.${k}` })),
    { value: 'custom.', label: t('leadPaths.custom') },
  ];
  return (
    <AutoComplete
      value={value}
      onChange={onChange}
      options={options.filter(
        (o) => !value || o.value.startsWith(value) || o.label.toLowerCase().includes(value.toLowerCase()),
      )}
      placeholder={t('leadPaths.placeholder')}
      status={invalid ? 'error' : undefined}
      aria-label={label}
      className={className ?? 'lr-crm-from'}
    />
  );
}
