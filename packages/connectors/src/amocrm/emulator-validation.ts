// amoCRM's validation in the emulator, as its validation-errors name them: custom field values
// checked against their field's type and enums, a lead's pipeline and status, responsible users.
// Checks push errors instead of throwing so one request reports all of them, as amoCRM does.
import type { ValidationError } from './emulator-gate';
import { AMO_SEED, type AmoFieldDef, type AmoFieldValues, type AmoValue } from './emulator-state';

const MAX_VALUES = 40;
const userIds: Set<number> = new Set(AMO_SEED.users.map((u) => u.id));
const isPositiveInt = (v: unknown) => typeof v === 'number' && Number.isInteger(v) && v > 0;

export function fieldValues(
  raw: unknown,
  fields: readonly AmoFieldDef[],
  path: string,
  errors: ValidationError[],
): AmoFieldValues[] | null {
  if (raw === undefined || raw === null) return null;
  if (!Array.isArray(raw)) {
    errors.push({ code: 'InvalidType', path, detail: 'This value should be of type array.' });
    return null;
  }
  if (raw.length > MAX_VALUES) errors.push({ code: 'TooMany', path, detail: 'Too many custom field values.' });
  const out: AmoFieldValues[] = [];
  raw.forEach((item: { field_id?: unknown; field_code?: unknown; values?: unknown }, i) => {
    const at = `${path}.${i}`;
    const field = fields.find((f) =>
      item.field_id !== undefined ? f.id === item.field_id : f.code !== null && f.code === item.field_code,
    );
    if (!field) {
      errors.push({
        code: 'NotSupportedChoice',
        path: `${at}.${item.field_id !== undefined ? 'field_id' : 'field_code'}`,
        detail: 'The value you selected is not a valid choice.',
      });
      return;
    }
    const values = Array.isArray(item.values) ? (item.values as AmoValue[]) : [];
    if (values.length === 0) {
      errors.push({ code: 'NotBlank', path: `${at}.values`, detail: 'This value should not be blank.' });
      return;
    }
    const kept: AmoValue[] = [];
    values.forEach((v, j) => {
      const vp = `${at}.values.${j}`;
      if (field.type === 'select' || field.type === 'multiselect') {
        const e = field.enums?.find((x) => x.id === v.enum_id || (v.enum_id === undefined && x.value === v.value));
        if (!e) {
          errors.push({
            code: 'NotSupportedChoice',
            path: `${vp}.enum_id`,
            detail: 'The value you selected is not a valid choice.',
          });
          return;
        }
        kept.push({ value: e.value, enum_id: e.id });
      } else if (field.type === 'multitext') {
        const e = field.enums?.find((x) => x.value === (v.enum_code ?? 'WORK') || x.id === v.enum_id);
        if (!e) {
          errors.push({
            code: 'NotSupportedChoice',
            path: `${vp}.enum_code`,
            detail: 'The value you selected is not a valid choice.',
          });
          return;
        }
        kept.push({ value: String(v.value ?? ''), enum_id: e.id, enum_code: e.value });
      } else if (field.type === 'numeric') {
        if (v.value === '' || v.value === null || Number.isNaN(Number(v.value))) {
          errors.push({ code: 'InvalidType', path: `${vp}.value`, detail: 'This value should be numeric.' });
          return;
        }
        kept.push({ value: String(v.value) });
      } else {
        if (typeof v.value !== 'string' && typeof v.value !== 'number') {
          errors.push({ code: 'InvalidType', path: `${vp}.value`, detail: 'This value should be of type string.' });
          return;
        }
        kept.push({ value: String(v.value) });
      }
    });
    if (field.type === 'select' && kept.length > 1) {
      errors.push({ code: 'TooMany', path: `${at}.values`, detail: 'A select field takes one value.' });
    }
    out.push({
      field_id: field.id,
      field_name: field.name,
      field_code: field.code,
      field_type: field.type,
      values: kept,
    });
  });
  return out.length ? out : null;
}

export function placement(item: { pipeline_id?: unknown; status_id?: unknown }, errors: ValidationError[]) {
  let pipeline: (typeof AMO_SEED.pipelines)[number] | undefined;
  if (item.pipeline_id !== undefined) {
    pipeline = AMO_SEED.pipelines.find((p) => p.id === item.pipeline_id);
    if (!pipeline) {
      errors.push({
        code: 'NotSupportedChoice',
        path: 'pipeline_id',
        detail: 'The value you selected is not a valid choice.',
      });
      return undefined;
    }
  }
  if (item.status_id !== undefined) {
    const holder = pipeline ?? AMO_SEED.pipelines.find((p) => p.statuses.some((s) => s.id === item.status_id));
    if (!holder?.statuses.some((s) => s.id === item.status_id)) {
      errors.push({
        code: 'NotSupportedChoice',
        path: 'status_id',
        detail: 'The value you selected is not a valid choice.',
      });
      return undefined;
    }
    return { pipeline_id: holder.id, status_id: item.status_id as number };
  }
  const p = pipeline ?? AMO_SEED.pipelines.find((x) => x.is_main)!;
  return { pipeline_id: p.id, status_id: p.statuses.find((s) => s.type === 0)!.id };
}

export function checkUser(v: unknown, path: string, errors: ValidationError[]): number | undefined {
  if (v === undefined) return undefined;
  if (!isPositiveInt(v) || !userIds.has(v as number)) {
    errors.push({ code: 'NotSupportedChoice', path, detail: 'The value you selected is not a valid choice.' });
    return undefined;
  }
  return v as number;
}

export const requestIdOf = (item: { request_id?: unknown }, i: number) =>
  typeof item.request_id === 'string' ? item.request_id : String(i);
