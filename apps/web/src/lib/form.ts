// The shared zod schemas drive antd form validation, so the web and the server agree.
import type { FormInstance, FormRule } from 'antd';
import { translateCode } from './errors';
import { HttpError } from './http';

interface Parser {
  safeParse(value: unknown): { success: true } | { success: false; error: { issues: { message: string }[] } };
}

/**
 * An antd rule that runs one field of a shared schema and shows the translated error key. The schema
 * may come from a loader: a page that must show before zod arrives checks its fields once it has.
 */
export function zodRule(schema: Parser | (() => Promise<Parser>)): FormRule {
  return {
    validator: async (_rule, value) => {
      const parser = typeof schema === 'function' ? await schema() : schema;
      const result = parser.safeParse(value ?? '');
      if (!result.success) throw new Error(translateCode(result.error.issues[0]?.message));
    },
  };
}

/** password_equal: the field must equal `other`. */
export function equalsRule(other: string): FormRule {
  return ({ getFieldValue }) => ({
    validator: async (_rule, value) => {
      if (value !== getFieldValue(other)) throw new Error(translateCode('PASSWORDS_NOT_EQUAL'));
    },
  });
}

/** Puts the server's field errors on the form; returns true when any field matched. */
export function applyServerErrors(form: FormInstance, err: unknown): boolean {
  if (!(err instanceof HttpError) || err.errors.length === 0) return false;
  const known = new Set(Object.keys(form.getFieldsValue(true)));
  const fields = err.errors
    .filter((e) => known.has(e.field))
    .map((e) => ({ name: e.field, errors: [translateCode(e.code)] }));
  form.setFields(fields);
  return fields.length > 0;
}
