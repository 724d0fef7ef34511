// What a connector's form holds for each field kind (kit/manifest.ts), and what it sends: the saved
// value or the field's default in, trimmed values out, hidden and empty ones left out. No drawing.
import type { Field, FieldSchema, FormItem, GroupField, PairsField } from '@leadrelay/connectors/manifest';
import { ZLeadPath } from '@leadrelay/shared';
import type { Rule } from 'antd/es/form';
import { translateCode } from '../../lib/errors';
import type { Say } from './words';

export type Values = Record<string, unknown>;

/** The key of a group's switch in its object (a group's own fields never start with "__"). */
export const GROUP_ON = '__on';

/** The fields of a card's items, rows opened. */
export const fieldsOf = <K extends string>(items: readonly FormItem<K>[]): Field<K>[] =>
  items.flatMap((item) => ('row' in item ? item.row : [item]));

const isEmpty = (v: unknown) =>
  v === undefined || v === null || (typeof v === 'string' && v.trim() === '') || (Array.isArray(v) && !v.length);

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

/** A field's rule: its schema (a lead path's by default), required, and its own `messages`. */
export const ruleOf = (field: Field<string>, say: Say): Rule =>
  fieldRule(field.kind === 'lead-path' ? (field.schema ?? ZLeadPath) : field.schema, field.required, {
    required: field.messages?.required && say(field.messages.required),
    invalid: field.messages?.invalid && say(field.messages.invalid),
  });

/** Whether a field shows with these values (its `visibleWhen`). */
export function isVisible(field: Pick<Field<string>, 'visibleWhen'>, values: Values): boolean {
  const when = field.visibleWhen;
  if (!when) return true;
  const value = values[when.field];
  return (when.is === undefined || value === when.is) && (when.not === undefined || value !== when.not);
}

/** A pairs row's second key: `from` (a lead field) or `value` (typed). */
export const pairValueKey = (field: PairsField<string>): 'from' | 'value' =>
  'value' in field.itemFrom ? 'value' : 'from';

const id = (v: unknown) => (typeof v === 'number' ? v : undefined);
const savedObject = (v: unknown): Values => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Values) : {});

/** What the form starts with for a field (a pipeline and its stage are two names): the saved value, else the default. */
export function initialEntries(field: Field<string>, saved: Values, say: Say): [string, unknown][] {
  const value = saved[field.name];
  const one = (v: unknown): [string, unknown][] => [[field.name, v]];
  switch (field.kind) {
    case 'text':
    case 'phone':
    case 'template':
      if (typeof value === 'string') return one(value);
      if (field.default === undefined) return one('');
      return one(typeof field.default === 'string' ? field.default : say(field.default.word));
    case 'lead-path':
      return one(typeof value === 'string' ? value : (field.default ?? ''));
    case 'switch':
    case 'checkbox':
      return one(typeof value === 'boolean' ? value : (field.default ?? false));
    case 'radio':
    case 'select':
    case 'segmented':
      return one(typeof value === 'string' ? value : field.default);
    case 'number':
      return one(typeof value === 'number' ? value : (field.default ?? null));
    case 'time-range':
      return one(value && typeof value === 'object' ? { ...field.default, ...value } : { ...field.default });
    case 'pairs':
      if (field.keyed) {
        const key = pairValueKey(field);
        return one(Object.entries(savedObject(value)).map(([name, v]) => ({ name, [key]: v })));
      }
      return one(Array.isArray(value) ? value : []);
    case 'list-select':
      return one(typeof value === 'string' || typeof value === 'number' ? value : undefined);
    case 'pipeline-stage':
      return [
        [field.name, id(value)],
        [field.stage.name, id(saved[field.stage.name])],
      ];
    case 'tags':
      return one(Array.isArray(value) ? value.filter((v) => typeof v === 'string') : []);
    case 'group': {
      const inner = savedObject(value);
      return one({ [GROUP_ON]: Boolean(value), ...initialValues(fieldsOf(field.items), inner, say) });
    }
    case 'secret':
    case 'note':
      return [];
  }
}

/** What a form starts with for its fields. */
export const initialValues = (fields: readonly Field<string>[], saved: Values, say: Say): Values =>
  Object.fromEntries(fields.flatMap((f) => initialEntries(f, saved, say)));

const trimmed = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

function groupValue(field: GroupField<string>, value: unknown): Values | undefined {
  const inner = savedObject(value);
  return inner[GROUP_ON] ? outputValues(fieldsOf(field.items), inner) : undefined;
}

/** What is sent for a field: trimmed, in capitals where asked; undefined (left out) when empty. */
export function outputEntries(field: Field<string>, value: unknown, values: Values): [string, unknown][] {
  const one = (v: unknown): [string, unknown][] => [[field.name, v]];
  switch (field.kind) {
    case 'text':
    case 'phone':
    case 'template':
    case 'lead-path': {
      const text = trimmed(value);
      if (!text) return one(undefined);
      return one('upperCase' in field && field.upperCase ? text.toUpperCase() : text);
    }
    case 'secret': {
      // A password (`exact`) goes as typed; blank is empty either way.
      const text = field.exact && typeof value === 'string' && value.trim() ? value : trimmed(value);
      return one(text || undefined);
    }
    case 'number':
      return one(typeof value === 'number' ? value : field.default);
    case 'pairs': {
      const key = pairValueKey(field);
      const rows = ((value as Record<string, string | undefined>[] | undefined) ?? []).map((p) => ({
        name: (p.name ?? '').trim(),
        [key]: (p[key] ?? '').trim(),
      }));
      if (!field.keyed) return one(rows);
      // One object by name (rows without a name are left out); none at all is no object.
      const named = rows.filter((r) => r.name);
      return one(named.length ? Object.fromEntries(named.map((r) => [r.name, r[key]])) : undefined);
    }
    case 'pipeline-stage': {
      const pipeline = id(value);
      return [
        [field.name, pipeline],
        [field.stage.name, pipeline === undefined ? undefined : id(values[field.stage.name])],
      ];
    }
    case 'tags': {
      const tags = (Array.isArray(value) ? value : []).map(trimmed).filter(Boolean);
      return one(tags.length ? tags : undefined);
    }
    case 'group':
      return one(groupValue(field, value));
    case 'note':
      return [];
    default:
      return one(value);
  }
}

/** The values of the visible fields to send; hidden and empty ones are left out (undefined), `local` ones never sent. */
export function outputValues(fields: readonly Field<string>[], values: Values): Values {
  const out = new Map<string, unknown>();
  for (const field of fields) {
    if (field.local) continue;
    const entries = outputEntries(field, values[field.name], values);
    for (const [name, value] of entries) out.set(name, isVisible(field, values) ? value : undefined);
  }
  return Object.fromEntries(out);
}

/** The names a field holds in the form (a pipeline and its stage are two). */
export const namesOf = (field: Field<string>): string[] =>
  field.kind === 'pipeline-stage' ? [field.name, field.stage.name] : [field.name];

/** Settings without their empty values (null, "", []): a cleared choice means "not set". */
export function withoutEmpty(values: Values): Values {
  return Object.fromEntries(
    Object.entries(values).filter(
      ([, v]) => v !== undefined && v !== null && v !== '' && !(Array.isArray(v) && v.length === 0),
    ),
  );
}
