// Time zones a person can pick (a manager's working hours, the account's day boundary): the IANA
// names the browser knows, Kyiv first.
import { DEFAULT_TIME_ZONE } from '@leadrelay/shared';

/** The zones the browser knows, Kyiv first; the current zone is kept even when the list lacks it. */
export function zoneOptions(current: string): { value: string; label: string }[] {
  const all = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  const zones = [DEFAULT_TIME_ZONE, current, ...all.filter((z) => z !== DEFAULT_TIME_ZONE && z !== current)];
  return [...new Set(zones)].map((z) => ({ value: z, label: z.replace(/_/g, ' ') }));
}

const searchable = (text: string) => text.toLowerCase().replace(/_/g, ' ');

/**
 * The pickers' search: a zone is found by its name as shown ("Sao Paulo") or as stored
 * ("Sao_Paulo"), in any case. (antd's default searched the stored value only, so "America/Sao Paulo",
 * as the list spells it, found nothing.)
 */
export function zoneMatches(input: string, option?: { value?: unknown; label?: unknown }): boolean {
  const query = searchable(input.trim());
  return [option?.value, option?.label].some((v) => typeof v === 'string' && searchable(v).includes(query));
}
