import { i18n } from './i18n';

/** The word-table key of a field as a lead, a rule or a parser names it: `custom.city` → `city`, `utm.source` → `utm_source`. */
const wordKey = (field: string) => field.replace(/^custom\./, '').replace(/^utm\./, 'utm_');

/**
 * A lead field's name in the page's language (`order_id` → «Номер замовлення», `custom.city` → «Місто»),
 * or null for a key the product does not know (a sender's own key: shown as it is, as data).
 */
export function leadFieldLabel(field: string): string | null {
  const words = i18n.t('common:leadFields', { returnObjects: true }) as unknown;
  if (!words || typeof words !== 'object') return null;
  // A Map: the key comes from outside (a payload, a rule) and is data, never a member of the table.
  const label = new Map(Object.entries(words as Record<string, unknown>)).get(wordKey(field));
  return typeof label === 'string' ? label : null;
}
