import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import type { FieldSchema, PairsField } from '@leadrelay/connectors/manifest';
import { ZLeadPath } from '@leadrelay/shared';
import { Button, Form, Input, Typography } from 'antd';
import type { Rule } from 'antd/es/form';
import { LeadPathInput } from '../integrations/lead-path-input';
import { pairValueKey } from './field-values';
import type { Say } from './words';

interface Props {
  field: PairsField<string>;
  say: Say;
  rule: (schema: FieldSchema | undefined, required?: boolean, words?: { invalid?: string }) => Rule;
}

/**
 * Rows of a name and, beside it, the lead field it comes from (an event's parameters) or a value
 * typed (a request header's), added and removed up to `max`.
 */
export function PairsInput({ field, say, rule }: Props) {
  const nameLabel = say(field.itemName.label);
  const second = field.itemFrom;
  const key = pairValueKey(field);
  const invalid = (word: string | undefined) => ({ invalid: word ? say(word) : undefined });
  return (
    <>
      <Typography.Title level={5}>{say(field.title)}</Typography.Title>
      {field.hint && (
        <Typography.Paragraph type="secondary" className="lr-hint">
          {say(field.hint, { max: field.max })}
        </Typography.Paragraph>
      )}
      <Form.List name={field.name}>
        {(rows, { add, remove }) => (
          <>
            {rows.map((row) => (
              <div key={row.key} className="lr-pair" data-testid="pair-row">
                <Form.Item
                  name={[row.name, 'name']}
                  rules={[rule(field.itemName.schema, true, invalid(field.itemName.invalid))]}
                >
                  <Input
                    placeholder={nameLabel}
                    aria-label={nameLabel}
                    className={field.itemName.mono ? 'lr-mono' : undefined}
                  />
                </Form.Item>
                {'value' in second ? (
                  <Form.Item
                    name={[row.name, key]}
                    rules={[rule(second.value.schema, false, invalid(second.value.invalid))]}
                  >
                    <Input placeholder={say(second.value.label)} aria-label={say(second.value.label)} />
                  </Form.Item>
                ) : (
                  <Form.Item name={[row.name, key]} rules={[rule(ZLeadPath, true)]}>
                    <LeadPathInput label={say(second.label)} className="lr-full" />
                  </Form.Item>
                )}
                <Button
                  type="text"
                  danger
                  icon={<DeleteOutlined aria-hidden />}
                  aria-label={say(field.remove)}
                  onClick={() => remove(row.name)}
                />
              </div>
            ))}
            {rows.length < field.max && (
              <Button
                icon={<PlusOutlined aria-hidden />}
                onClick={() => add({ name: '', [key]: '' })}
                className="lr-mb"
              >
                {say(field.add)}
              </Button>
            )}
          </>
        )}
      </Form.List>
    </>
  );
}
