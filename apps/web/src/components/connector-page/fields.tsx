// The field kinds of a connector's settings (kit/manifest.ts), each drawn once (field-values.ts says
// what the form holds and sends for them). A manifest says which; no connector is named.
import type { ChoiceField, Field, FormItem } from '@leadrelay/connectors/manifest';
import { Checkbox, Form, Input, InputNumber, Radio, Segmented, Select, Space, Switch, Typography } from 'antd';
import type { FormItemProps } from 'antd/es/form';
import { LeadPathInput } from '../integrations/lead-path-input';
import { fieldRule, GROUP_ON, isVisible, ruleOf, type Values } from './field-values';
import { ListSelect, PipelineStage } from './list-fields';
import { PairsInput } from './pairs-input';
import { TemplateEditor } from './template-editor';
import { TimeRangeInput } from './time-range-input';
import type { Say } from './words';

export { fieldRule, fieldsOf, initialValues, isVisible, outputValues } from './field-values';

interface ItemProps {
  field: Field<string>;
  say: Say;
  /** Where the field sits in the form's values: inside a group's object. */
  path?: readonly string[];
  /** In a row that wraps: the box grows, or keeps narrow. */
  inRow?: boolean;
}

/** One field drawn as its kind (the credentials card draws its own secrets: set, or a Replace button). */
export function FieldItem({ field, say, path = [], inRow }: ItemProps) {
  const label = field.label ? say(field.label) : undefined;
  const hint = field.hint ? say(field.hint) : undefined;
  const className = inRow ? (field.narrow ? 'lr-crm-narrow' : 'lr-grow') : undefined;
  const item = { name: [...path, field.name], label, extra: hint, rules: [ruleOf(field, say)], className };
  switch (field.kind) {
    case 'text':
    case 'phone':
      return (
        <Form.Item {...item} normalize={field.upperCase ? (v: string) => v.toUpperCase() : undefined}>
          <Input
            maxLength={field.maxLength}
            placeholder={field.placeholder ? say(field.placeholder) : field.example}
            className={field.mono ? 'lr-mono' : undefined}
            type={field.inputMode === 'email' ? 'email' : undefined}
            inputMode={field.kind === 'phone' ? 'tel' : field.inputMode}
            autoComplete={field.autoComplete}
          />
        </Form.Item>
      );
    case 'secret':
      // Typed in and sent once, never shown again (the credentials card draws its own, with Replace).
      return (
        <Form.Item {...item}>
          <Input.Password
            autoComplete={field.autoComplete ?? 'new-password'}
            placeholder={field.example}
            maxLength={field.maxLength}
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
        <Form.Item name={item.name} extra={hint} valuePropName="checked">
          <Checkbox>{label}</Checkbox>
        </Form.Item>
      );
    case 'radio':
    case 'select':
    case 'segmented':
      return <ChoiceItem field={field} item={item} say={say} />;
    case 'number':
      return (
        <Form.Item {...item}>
          <InputNumber min={field.min} max={field.max} precision={field.integer ? 0 : undefined} className="lr-full" />
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
    case 'list-select':
      return (
        <Form.Item {...item}>
          <ListSelect field={field} say={say} />
        </Form.Item>
      );
    case 'pipeline-stage':
      return <PipelineStage field={field} say={say} label={label} />;
    case 'tags':
      return (
        <Form.Item {...item}>
          <Select mode="tags" maxCount={field.max} tokenSeparators={[',']} open={false} suffixIcon={null} />
        </Form.Item>
      );
    case 'group':
      return (
        <>
          <Form.Item {...item} name={[...item.name, GROUP_ON]} rules={undefined} valuePropName="checked">
            <Switch />
          </Form.Item>
          <Form.Item noStyle shouldUpdate>
            {({ getFieldValue }) =>
              getFieldValue([...item.name, GROUP_ON]) ? (
                <div className="lr-crm-pair">
                  {field.items.map((f) => (
                    <FieldItem key={f.name} field={f} say={say} path={item.name} inRow />
                  ))}
                </div>
              ) : null
            }
          </Form.Item>
        </>
      );
    case 'note':
      return (
        <Typography.Paragraph type="secondary" className="lr-hint">
          {say(field.text)}
        </Typography.Paragraph>
      );
  }
}

/**
 * A radio group (one under another, each with its hint, when they have hints), a select or a
 * segmented switch of the manifest's options; another choice empties the fields it `clears`.
 */
function ChoiceItem({ field, item, say }: { field: ChoiceField<string>; item: FormItemProps; say: Say }) {
  const form = Form.useFormInstance();
  const options = field.options.map((o) => ({ value: o.value, label: say(o.label), disabled: o.disabled }));
  const onChange = field.clears
    ? () => form.setFieldsValue(Object.fromEntries(field.clears?.map((name) => [name, undefined]) ?? []))
    : undefined;
  if (field.kind === 'select')
    return (
      <Form.Item {...item}>
        <Select options={options} onChange={onChange} />
      </Form.Item>
    );
  if (field.kind === 'segmented')
    return (
      <Form.Item {...item}>
        <Segmented options={options} onChange={onChange} />
      </Form.Item>
    );
  if (!field.options.some((o) => o.hint))
    return (
      <Form.Item {...item}>
        <Radio.Group className={field.spaced ? 'lr-crm-radios' : undefined} options={options} onChange={onChange} />
      </Form.Item>
    );
  return (
    <Form.Item {...item}>
      <Radio.Group className="lr-full" onChange={onChange}>
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
export function ConditionalField({ field, say, inRow }: { field: Field<string>; say: Say; inRow?: boolean }) {
  const when = field.visibleWhen;
  if (!when) return <FieldItem field={field} say={say} inRow={inRow} />;
  return (
    <Form.Item noStyle shouldUpdate={(a: Values, b: Values) => a[when.field] !== b[when.field]}>
      {({ getFieldsValue }) =>
        isVisible(field, getFieldsValue(true) as Values) ? <FieldItem field={field} say={say} inRow={inRow} /> : null
      }
    </Form.Item>
  );
}

/** Fields side by side; while none of them shows, no row at all. */
function RowItem({ item, say }: { item: Extract<FormItem<string>, { row: unknown }>; say: Say }) {
  const row = (
    <div className={item.wrap ? 'lr-crm-pair' : 'lr-form-row'}>
      {item.row.map((f) => (
        <ConditionalField key={f.name} field={f} say={say} inRow={item.wrap} />
      ))}
    </div>
  );
  if (item.row.some((f) => !f.visibleWhen)) return row;
  return (
    <Form.Item noStyle shouldUpdate>
      {({ getFieldsValue }) => {
        const values = getFieldsValue(true) as Values;
        return item.row.some((f) => isVisible(f, values)) ? row : null;
      }}
    </Form.Item>
  );
}

/** A card's items: its fields, rows side by side. */
export function FormItems({ items, say }: { items: readonly FormItem<string>[]; say: Say }) {
  return (
    <>
      {items.map((item) =>
        'row' in item ? (
          <RowItem key={item.row.map((f) => f.name).join()} item={item} say={say} />
        ) : (
          <ConditionalField key={item.name} field={item} say={say} />
        ),
      )}
    </>
  );
}
