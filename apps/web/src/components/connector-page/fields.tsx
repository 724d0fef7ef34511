// The field kinds of a connector's settings (kit/manifest.ts), each drawn once: what the form holds
// for it, how it is drawn and checked, and what is sent. A manifest says which; no connector is named.
import type { ChoiceField, Field, FieldSchema, FormItem } from '@leadrelay/connectors/manifest';
import { ZLeadPath } from '@leadrelay/shared';
import { Checkbox, Form, Input, InputNumber, Radio, Segmented, Select, Space, Switch, Typography } from 'antd';
import type { FormItemProps, Rule } from 'antd/es/form';
import { translateCode } from '../../lib/errors';
import { LeadPathInput } from '../integrations/lead-path-input';
import { PairsInput } from './pairs-input';
import { TemplateEditor } from './template-editor';
import { TimeRangeInput } from './time-range-input';
import type { Say } from './words';

type Values = Record<string, unknown>;

/** The fields of a card's items, rows opened. */
export const fieldsOf = <K extends string>(items: readonly FormItem<K>[]): Field<K>[] =>
  items.flatMap((item) => ('row' in item ? item.row : [item]));

const isEmpty = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/**
 * Required first (REQUIRED on empty), then the field's schema on a value; an empty optional field
 * passes. `words` are the field's own for empty and refused, instead of the codes'.
 */
export function fieldRule(
  schema: FieldSchema | undefined,
  required = false,
  words: { required?: string; invalid?: string } = {},
): Rule {
  return {
    validator: async (_rule, value: unknown) => {
      if (isEmpty(value)) {
        if (required) throw new Error(words.required ?? translateCode('REQUIRED'));
        return;
      }
      const parsed = schema?.safeParse(typeof value === 'string' ? value.trim() : value);
      if (parsed && !parsed.success) throw new Error(words.invalid ?? translateCode(parsed.error.issues[0]?.message));
    },
  };
}

const ruleOf = (field: Field<string>, say: Say): Rule =>
  fieldRule(field.kind === 'lead-path' ? (field.schema ?? ZLeadPath) : field.schema, field.required, {
    required: field.messages?.required && say(field.messages.required),
    invalid: field.messages?.invalid && say(field.messages.invalid),
  });

/** Whether a field shows with these values (its `visibleWhen`). */
export function isVisible(field: Field<string>, values: Values): boolean {
  const when = field.visibleWhen;
  if (!when) return true;
  const value = values[when.field];
  return (when.is === undefined || value === when.is) && (when.not === undefined || value !== when.not);
}

/** What the form starts with for a field: the saved value, else the field's default. */
export function initialValue(field: Field<string>, saved: Values, say: Say): unknown {
  const value = saved[field.name];
  switch (field.kind) {
    case 'text':
    case 'phone':
    case 'template':
      if (typeof value === 'string') return value;
      if (field.default === undefined) return '';
      return typeof field.default === 'string' ? field.default : say(field.default.word);
    case 'lead-path':
      return typeof value === 'string' ? value : (field.default ?? '');
    case 'switch':
    case 'checkbox':
      return typeof value === 'boolean' ? value : (field.default ?? false);
    case 'radio':
    case 'select':
    case 'segmented':
      return typeof value === 'string' ? value : field.default;
    case 'number':
      return typeof value === 'number' ? value : null;
    case 'time-range':
      return value && typeof value === 'object' ? { ...field.default, ...value } : { ...field.default };
    case 'pairs':
      return Array.isArray(value) ? value : [];
    case 'secret':
      return undefined;
  }
}

/** What a form starts with for its fields. */
export const initialValues = (fields: readonly Field<string>[], saved: Values, say: Say): Values =>
  Object.fromEntries(fields.map((f) => [f.name, initialValue(f, saved, say)]));

/** What is sent for a field: trimmed, in capitals where asked; undefined (left out) when empty. */
export function outputValue(field: Field<string>, value: unknown): unknown {
  switch (field.kind) {
    case 'text':
    case 'phone':
    case 'template':
    case 'lead-path':
    case 'secret': {
      // A password goes as typed.
      if (field.kind === 'secret' && field.exact) return typeof value === 'string' && value ? value : undefined;
      const text = typeof value === 'string' ? value.trim() : '';
      if (!text) return undefined;
      return 'upperCase' in field && field.upperCase ? text.toUpperCase() : text;
    }
    case 'number':
      return typeof value === 'number' ? value : undefined;
    case 'pairs':
      return ((value as { name?: string; from?: string }[] | undefined) ?? []).map((p) => ({
        name: (p.name ?? '').trim(),
        from: (p.from ?? '').trim(),
      }));
    default:
      return value;
  }
}

/** The values of the visible fields to send; hidden, empty and `local` ones are left out. */
export function outputValues(fields: readonly Field<string>[], values: Values): Values {
  const out = new Map<string, unknown>();
  for (const field of fields) {
    if (field.local) continue;
    const value = isVisible(field, values) ? outputValue(field, values[field.name]) : undefined;
    out.set(field.name, value);
  }
  return Object.fromEntries(out);
}

/** One field drawn as its kind (a secret is the credentials card's). */
export function FieldItem({ field, say }: { field: Field<string>; say: Say }) {
  const label = field.label ? say(field.label) : undefined;
  const hint = field.hint ? say(field.hint) : undefined;
  const item = { name: field.name, label, extra: hint, rules: [ruleOf(field, say)] };
  switch (field.kind) {
    case 'text':
    case 'phone':
      return (
        <Form.Item {...item} normalize={field.upperCase ? (v: string) => v.toUpperCase() : undefined}>
          <Input
            maxLength={field.maxLength}
            placeholder={field.placeholder ? say(field.placeholder) : field.example}
            className={field.mono ? 'lr-mono' : undefined}
            inputMode={field.kind === 'phone' ? 'tel' : field.inputMode}
          />
        </Form.Item>
      );
    case 'switch':
      return (
        <Form.Item {...item} valuePropName="checked">
          <Switch />
        </Form.Item>
      );
    case 'checkbox':
      return (
        <Form.Item name={field.name} extra={hint} valuePropName="checked">
          <Checkbox>{label}</Checkbox>
        </Form.Item>
      );
    case 'radio':
      if (field.options.some((o) => o.hint)) return <HintedRadios field={field} item={item} say={say} />;
      return (
        <Form.Item {...item}>
          <Radio.Group
            options={field.options.map((o) => ({ value: o.value, label: say(o.label), disabled: o.disabled }))}
          />
        </Form.Item>
      );
    case 'select':
    case 'segmented': {
      const options = field.options.map((o) => ({ value: o.value, label: say(o.label), disabled: o.disabled }));
      return (
        <Form.Item {...item}>
          {field.kind === 'select' ? <Select options={options} /> : <Segmented options={options} />}
        </Form.Item>
      );
    }
    case 'number':
      return (
        <Form.Item {...item}>
          <InputNumber min={field.min} className="lr-full" />
        </Form.Item>
      );
    case 'lead-path':
      return (
        <Form.Item {...item}>
          <LeadPathInput label={label ?? field.name} className="lr-full" />
        </Form.Item>
      );
    case 'template':
      return (
        <Form.Item {...item}>
          <TemplateEditor
            label={label ?? field.name}
            placeholders={field.placeholders}
            caption={say(field.preview)}
            counter={field.counter}
            maxLength={field.maxLength}
          />
        </Form.Item>
      );
    case 'time-range':
      return (
        <Form.Item {...item}>
          <TimeRangeInput label={label ?? field.name} from={say(field.from)} to={say(field.to)} />
        </Form.Item>
      );
    case 'pairs':
      return <PairsInput field={field} say={say} rule={fieldRule} />;
    case 'secret':
      // Typed in and sent once, never shown again (the credentials card draws its own, with Replace).
      return (
        <Form.Item {...item}>
          <Input.Password autoComplete="new-password" placeholder={field.example} />
        </Form.Item>
      );
  }
}

/** Radio options one under another, each with its hint. */
function HintedRadios({ field, item, say }: { field: ChoiceField<string>; item: FormItemProps; say: Say }) {
  return (
    <Form.Item {...item}>
      <Radio.Group className="lr-full">
        <Space orientation="vertical">
          {field.options.map((o) => (
            <Radio key={o.value} value={o.value} disabled={o.disabled}>
              {say(o.label)}
              {o.hint && (
                <div>
                  <Typography.Text type="secondary" className="lr-hint">
                    {say(o.hint)}
                  </Typography.Text>
                </div>
              )}
            </Radio>
          ))}
        </Space>
      </Radio.Group>
    </Form.Item>
  );
}

/** A field that shows only with some values of another: drawn again when that one changes. */
export function ConditionalField({ field, say }: { field: Field<string>; say: Say }) {
  const when = field.visibleWhen;
  if (!when) return <FieldItem field={field} say={say} />;
  return (
    <Form.Item noStyle shouldUpdate={(a: Values, b: Values) => a[when.field] !== b[when.field]}>
      {({ getFieldsValue }) =>
        isVisible(field, getFieldsValue(true) as Values) ? <FieldItem field={field} say={say} /> : null
      }
    </Form.Item>
  );
}

/** A card's items: its fields, rows side by side. */
export function FormItems({ items, say }: { items: readonly FormItem<string>[]; say: Say }) {
  return (
    <>
      {items.map((item) =>
        'row' in item ? (
          <div key={item.row.map((f) => f.name).join()} className="lr-form-row">
            {item.row.map((f) => (
              <ConditionalField key={f.name} field={f} say={say} />
            ))}
          </div>
        ) : (
          <ConditionalField key={item.name} field={item} say={say} />
        ),
      )}
    </>
  );
}
