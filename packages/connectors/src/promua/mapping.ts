// A Prom.ua order as one lead: the flat payload our ingest maps (buyer, phone, e-mail, items, sum,
// delivery, payment, comment, the order's status and its id). The same function makes the mapping
// tab's sample, so what the user maps is what arrives. Field names: docs/connectors/promua.md
// (confirmed from Prom's API docs and clients, or assumed, each said there).
import { setOwn } from '@leadrelay/shared';

/** A product line of an order (orders/list `products[]`). */
export interface PromOrderLine {
  id?: number | string;
  name?: string;
  sku?: string;
  quantity?: number | string;
  /** Prom writes money as text ("1 200,50 грн") or as a number. */
  price?: number | string;
  total_price?: number | string;
  [key: string]: unknown;
}

/** A named option of an order (its delivery or payment option). */
export interface PromOption {
  id?: number | string;
  name?: string;
  [key: string]: unknown;
}

/** An order as GET /orders/list and /orders/{id} answer it. */
export interface PromOrder {
  id: number | string;
  date_created?: string;
  client_first_name?: string | null;
  client_second_name?: string | null;
  client_last_name?: string | null;
  phone?: string | null;
  email?: string | null;
  products?: PromOrderLine[];
  price?: number | string | null;
  full_price?: number | string | null;
  delivery_option?: PromOption | null;
  delivery_address?: string | null;
  delivery_provider_data?: { provider?: string; declaration_number?: string | null; [key: string]: unknown } | null;
  delivery_cost?: number | string | null;
  payment_option?: PromOption | null;
  client_notes?: string | null;
  status?: string | null;
  status_name?: string | null;
  source?: string | null;
  utm?: Record<string, unknown> | null;
  [key: string]: unknown;
}

/** Text longer than this is cut: a payload is a lead, not an archive of the order. */
const MAX_TEXT = 2000;
const MAX_LINES = 50;

const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

const text = (value: unknown): string | undefined => {
  if (typeof value === 'string') {
    const trimmed = value.replace(/\s+/g, ' ').trim();
    return trimmed ? trimmed.slice(0, MAX_TEXT) : undefined;
  }
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
};

/** The order's id as text: a positive integer (a number or digits), else undefined. */
export function promOrderId(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return String(value);
  if (typeof value === 'string' && /^\d{1,18}$/.test(value.trim()) && Number(value) > 0) return value.trim();
  return undefined;
}

/** A money amount as Prom writes it ("1 200,50 грн", "350.00", 350), or undefined. */
export function promAmount(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const compact = value.replace(/[\s\u00a0\u202f]/g, '');
  const m = /-?\d+(?:[.,]\d+)?/.exec(compact);
  return m ? Number(m[0].replace(',', '.')) : undefined;
}

const amountText = (value: unknown): string | undefined => {
  const n = promAmount(value);
  return n === undefined ? undefined : String(Math.round(n * 100) / 100);
};

/** Prom.ua sells in hryvnias; a price written in another currency's sign says so. */
function currencyOf(...values: unknown[]): string {
  for (const v of values) {
    if (typeof v !== 'string') continue;
    if (/\$|usd/i.test(v)) return 'USD';
    if (/€|eur/i.test(v)) return 'EUR';
  }
  return 'UAH';
}

/** "Кавоварка CM-200 × 1 = 4200": one line of the order, in Prom's own words and numbers. */
function lineText(line: PromOrderLine): string | undefined {
  const name = text(line.name) ?? text(line.sku);
  if (!name) return undefined;
  const quantity = amountText(line.quantity);
  const total = amountText(line.total_price) ?? amountText(line.price);
  return `${name}${quantity ? ` × ${quantity}` : ''}${total ? ` = ${total}` : ''}`;
}

/** The buyer's name as Prom splits it: first, patronymic (second) and last. */
export function promBuyer(order: PromOrder): string | undefined {
  const parts = [order.client_first_name, order.client_second_name, order.client_last_name].map(text).filter(Boolean);
  return parts.length ? parts.join(' ').slice(0, 300) : undefined;
}

const UTM = ['source', 'medium', 'campaign', 'term', 'content'] as const;

/**
 * The flat payload of an order. `comment` sums the order up in Prom's own words and numbers (no
 * words of ours: it goes to a CRM as it is), the buyer's own note last.
 */
export function promOrderPayload(order: PromOrder): Record<string, string> {
  const payload: Record<string, string> = {};
  const put = (key: string, value: string | undefined) => {
    if (value) setOwn(payload, key, value);
  };
  const id = promOrderId(order.id) ?? text(order.id) ?? '';
  put('order_id', id);
  put('name', promBuyer(order));
  put('phone', text(order.phone));
  put('email', text(order.email));

  const products = Array.isArray(order.products) ? order.products : [];
  const lines = products
    .slice(0, MAX_LINES)
    .map((l) => (isRecord(l) ? lineText(l as PromOrderLine) : undefined))
    .filter((l): l is string => !!l);
  put('items', lines.join('; ').slice(0, MAX_TEXT));
  if (products.length) put('items_count', String(products.length));

  // full_price is the sum with delivery; price without it.
  const total = amountText(order.full_price) ?? amountText(order.price);
  const currency = currencyOf(order.full_price, order.price);
  put('total', total);
  if (total) put('currency', currency);
  const goods = amountText(order.price);
  if (goods && goods !== total) put('total_without_delivery', goods);
  const deliveryCost = promAmount(order.delivery_cost);
  if (deliveryCost !== undefined && deliveryCost > 0) put('delivery_price', amountText(deliveryCost));

  const option = isRecord(order.delivery_option) ? text(order.delivery_option.name) : undefined;
  const address = text(order.delivery_address);
  put('delivery', [option, address].filter(Boolean).join(', ').slice(0, MAX_TEXT));
  put('delivery_option', option);
  put('delivery_address', address);
  const provider = isRecord(order.delivery_provider_data) ? order.delivery_provider_data : {};
  put('delivery_provider', text(provider.provider));
  put('ttn', text(provider.declaration_number));
  put('payment', isRecord(order.payment_option) ? text(order.payment_option.name) : undefined);
  put('status', text(order.status));
  put('status_name', text(order.status_name));
  put('order_source', text(order.source));
  put('created_at', text(order.date_created));

  const utm = isRecord(order.utm) ? order.utm : {};
  for (const key of UTM) put(`utm_${key}`, text(utm[`utm_${key}`]) ?? text(utm[key]));

  const summary = [
    id ? `#${id}` : undefined,
    payload.items,
    total ? `${total} ${currency}` : undefined,
    payload.delivery,
    payload.payment,
    text(order.client_notes),
  ].filter(Boolean);
  put('comment', summary.join('\n').slice(0, MAX_TEXT));
  return payload;
}

/** An order for the mapping preview, shaped like orders/list answers it. */
export const PROMUA_SAMPLE_ORDER: PromOrder = {
  id: 312405,
  date_created: '2026-11-28T10:15:00.000000+00:00',
  client_first_name: 'Олена',
  client_second_name: '',
  client_last_name: 'Коваленко',
  phone: '+380671234567',
  email: 'olena@example.com',
  products: [
    { id: 1, name: 'Кавоварка CM-200', sku: 'CM-200', quantity: 1, price: '4 200 грн', total_price: '4 200 грн' },
    { id: 2, name: 'Фільтри, 10 шт.', sku: 'F-10', quantity: 2, price: '150 грн', total_price: '300 грн' },
  ],
  price: '4 500 грн',
  full_price: '4 500 грн',
  delivery_option: { id: 13013934, name: 'Нова Пошта' },
  delivery_address: 'Київ, Відділення №5: вул. Хрещатик, 22',
  delivery_provider_data: { provider: 'nova_poshta', declaration_number: null },
  payment_option: { id: 7547964, name: 'Оплата при отриманні' },
  client_notes: 'Зателефонуйте перед відправкою',
  status: 'pending',
  status_name: 'Новий',
  source: 'portal',
  utm: null,
};
