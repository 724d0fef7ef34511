import type { ParserRules } from '@leadrelay/shared';

/** Rules a new parser may start from: typical notification mails (tuned on the page against a sample). */
export const PRESETS: Record<'none' | 'prom' | 'rozetka' | 'form', ParserRules> = {
  none: { match: {}, auto: true, fields: [] },
  prom: {
    match: { from: 'prom.ua', subject: 'замовлення' },
    auto: true,
    fields: [
      { kind: 'regex', field: 'order_id', pattern: '№\\s*(\\d+)', source: 'subject' },
      { kind: 'label', field: 'total', label: 'Сума|Сума замовлення' },
      { kind: 'label', field: 'product', label: 'Товар|Товари' },
      { kind: 'label', field: 'delivery', label: 'Спосіб доставки|Доставка' },
    ],
  },
  rozetka: {
    match: { from: 'rozetka' },
    auto: true,
    fields: [
      { kind: 'label', field: 'name', label: 'Отримувач|Покупець' },
      { kind: 'label', field: 'phone', label: 'Телефон отримувача|Телефон' },
      { kind: 'label', field: 'total', label: 'Сума замовлення|Сума' },
      { kind: 'regex', field: 'order_id', pattern: '№\\s*(\\d+)', source: 'any' },
    ],
  },
  form: { match: {}, auto: true, fields: [{ kind: 'label', field: 'city', label: 'Місто|City' }] },
};
export type PresetKey = keyof typeof PRESETS;
