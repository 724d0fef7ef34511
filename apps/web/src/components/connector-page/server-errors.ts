import type { Field } from '@leadrelay/connectors/manifest';
import { translateCode } from '../../lib/errors';
import { HttpError } from '../../lib/http';

type Path = (string | number)[];

/** An error's path (settings.params.0.name) as a form field's name: ['params', 0, 'name']. */
export function formPath(path: readonly PropertyKey[] | string, fields: readonly Field<string>[]): Path | null {
  const parts = (typeof path === 'string' ? path.split('.') : path.map(String)).map((k) =>
    /^\d+$/.test(k) ? Number(k) : k,
  );
  const field = fields.find((f) => f.name === parts[0]);
  if (!field) return null;
  // A time range is one field: its from or to error shows under it; so is an object of pairs by name
  // (settings.headers.X-Token: its rows are by place, not by name).
  return field.kind === 'time-range' || (field.kind === 'pairs' && field.keyed) ? [field.name] : parts;
}

/**
 * The server's field errors (auth.apiKey, settings.quietHours.to) on the card's fields; `elsewhere`
 * is true when one names a setting the card does not show.
 */
export function serverFieldErrors(
  err: unknown,
  fields: readonly Field<string>[],
): { fields: { name: Path; errors: string[] }[]; elsewhere: boolean } {
  if (!(err instanceof HttpError)) return { fields: [], elsewhere: false };
  const out: { name: Path; errors: string[] }[] = [];
  let elsewhere = false;
  for (const e of err.errors) {
    const name = formPath(e.field.replace(/^(?:settings|auth)\./, ''), fields);
    if (name) out.push({ name, errors: [translateCode(e.code)] });
    else if (e.field.startsWith('settings.')) elsewhere = true;
  }
  return { fields: out, elsewhere };
}
