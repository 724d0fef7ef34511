import { countSms, renderSmsTemplate, type TemplateLead, unknownPlaceholders } from '@leadrelay/shared';
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
  /** The lead's fields the buttons insert ({name}, {utm_source}). */
  placeholders: readonly string[];
  /** Above the preview: whose phone it goes to. */
  caption: string;
  /** sms: the rendered text's length in SMS parts. */
  counter?: 'sms';
  maxLength?: number;
}

/** A sample lead in the interface's language: what the preview fills the placeholders with. */
export function useSampleLead(): TemplateLead {
  const { t } = useTranslation('integrations');
  return {
    name: t('template.sample.name'),
    phone: '+380501234567',
    email: 'olena@example.com',
    comment: t('template.sample.comment'),
    utm: { source: 'instagram', medium: 'cpc', campaign: 'spring_sale' },
    custom: {},
  };
}

/** The rendered text's length in SMS parts: the shared counter the server's SMS log uses too. */
function SmsCounter({ text }: { text: string }) {
  const { t } = useTranslation('integrations');
  const count = countSms(text);
  return (
    <div className="lr-template-counter" data-testid="sms-counter">
      <Typography.Text>{t('template.length', { count: count.units })}</Typography.Text>
      <Tag color={count.parts > 1 ? 'orange' : 'blue'}>{t('template.parts', { count: count.parts })}</Tag>
      <Typography.Text type="secondary">
        {count.encoding === 'UCS-2'
          ? t('template.ucs2', { left: count.remaining })
          : t('template.gsm7', { left: count.remaining })}
      </Typography.Text>
    </div>
  );
}

/**
 * A message template: buttons that insert the lead's fields where the cursor is, and a live preview of
 * the text a sample lead gets; with `counter: 'sms'` its length in SMS parts (Cyrillic: 70 characters
 * in one SMS, 67 per part once split; Latin: 160 and 153).
 */
export function TemplateEditor({ value = '', onChange, id, label, placeholders, caption, counter, maxLength }: Props) {
  const { t } = useTranslation('integrations');
  const ref = useRef<TextAreaRef>(null);
  const text = renderSmsTemplate(value, useSampleLead());
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
      <fieldset className="lr-template-placeholders" aria-label={t('template.insert')}>
        {placeholders.map((name) => (
          <Button
            key={name}
            size="small"
            onClick={() => insert(name)}
            title={t(`template.placeholders.${name}` as never, { defaultValue: name })}
          >
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
        maxLength={maxLength}
        aria-label={label}
      />
      {unknown.length > 0 && (
        <Typography.Text type="warning" className="lr-hint">
          {t('template.unknown', { names: unknown.map((n) => `{${n}}`).join(', ') })}
        </Typography.Text>
      )}
      <div className="lr-mt">
        <Typography.Text type="secondary">{caption}</Typography.Text>
        <div className={`lr-template-preview${text ? '' : ' lr-template-preview-empty'}`} data-testid="sms-preview">
          {text || t('template.previewEmpty')}
        </div>
        {counter === 'sms' && <SmsCounter text={text} />}
      </div>
    </div>
  );
}
