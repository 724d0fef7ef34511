import {
  countSms,
  renderSmsTemplate,
  SMS_PLACEHOLDERS,
  SMS_TEXT_MAX,
  type TemplateLead,
  unknownPlaceholders,
} from '@leadrelay/shared';
import { Button, Input, Tag, Typography } from 'antd';
import type { TextAreaRef } from 'antd/es/input/TextArea';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';

interface Props {
  /** From Form.Item. */
  value?: string;
  onChange?: (value: string) => void;
  id?: string;
  label: string;
  /** Whose phone it goes to: the preview's caption says so. */
  recipient: 'lead' | 'manager';
}

/** A sample lead in the interface's language: what the preview fills the placeholders with. */
export function useSampleLead(): TemplateLead {
  const { t } = useTranslation('sms');
  return {
    name: t('sample.name'),
    phone: '+380501234567',
    email: 'olena@example.com',
    comment: t('sample.comment'),
    utm: { source: 'facebook', medium: 'cpc', campaign: 'spring_sale' },
    custom: {},
  };
}

/**
 * An SMS template: buttons that insert the lead's fields where the cursor is, and a live preview of
 * the text a sample lead gets with its length in SMS parts — the shared counter the server's SMS
 * log uses too (Cyrillic: 70 characters in one SMS, 67 per part once split; Latin: 160 and 153).
 */
export function TemplateEditor({ value = '', onChange, id, label, recipient }: Props) {
  const { t } = useTranslation('sms');
  const ref = useRef<TextAreaRef>(null);
  const text = renderSmsTemplate(value, useSampleLead());
  const count = countSms(text);
  const unknown = unknownPlaceholders(value);

  const insert = (name: string) => {
    const area = ref.current?.resizableTextArea?.textArea;
    const start = area?.selectionStart ?? value.length;
    const end = area?.selectionEnd ?? value.length;
    const token = `{${name}}`;
    onChange?.(`${value.slice(0, start)}${token}${value.slice(end)}`);
    requestAnimationFrame(() => {
      area?.focus();
      area?.setSelectionRange(start + token.length, start + token.length);
    });
  };

  return (
    <div>
      <fieldset className="lr-sms-placeholders" aria-label={t('template.insert')}>
        {SMS_PLACEHOLDERS.map((name) => (
          <Button key={name} size="small" onClick={() => insert(name)} title={t(`placeholders.${name}`)}>
            {`{${name}}`}
          </Button>
        ))}
      </fieldset>
      <Input.TextArea
        id={id}
        ref={ref}
        value={value}
        onChange={(e) => onChange?.(e.target.value)}
        autoSize={{ minRows: 3, maxRows: 8 }}
        maxLength={SMS_TEXT_MAX}
        aria-label={label}
      />
      {unknown.length > 0 && (
        <Typography.Text type="warning" className="lr-hint">
          {t('template.unknown', { names: unknown.map((n) => `{${n}}`).join(', ') })}
        </Typography.Text>
      )}
      <div className="lr-mt">
        <Typography.Text type="secondary">
          {recipient === 'lead' ? t('template.preview') : t('template.previewManager')}
        </Typography.Text>
        <div className={`lr-sms-preview${text ? '' : ' lr-sms-preview-empty'}`} data-testid="sms-preview">
          {text || t('template.previewEmpty')}
        </div>
        <div className="lr-sms-counter" data-testid="sms-counter">
          <Typography.Text>{t('template.length', { count: count.units })}</Typography.Text>
          <Tag color={count.parts > 1 ? 'orange' : 'blue'}>{t('template.parts', { count: count.parts })}</Tag>
          <Typography.Text type="secondary">
            {count.encoding === 'UCS-2'
              ? t('template.ucs2', { left: count.remaining })
              : t('template.gsm7', { left: count.remaining })}
          </Typography.Text>
        </div>
      </div>
    </div>
  );
}
