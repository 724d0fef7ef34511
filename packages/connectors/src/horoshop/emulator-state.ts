// The Horoshop emulator's data: the shop's orders (with the time each was made on the emulator's
// clock, which orders/get's from/to filter on), its API admins, tokens and webhook subscriptions.
import { randomBytes } from 'node:crypto';
import type { HoroshopOrder, HoroshopOrderLine } from './schema';

export interface EmulatedSubscription {
  id: number;
  event: string;
  targetUrl: string;
}

export interface EmulatedOrder {
  order: HoroshopOrder;
  /** Epoch ms on the emulator's clock. */
  createdAt: number;
}

/** What the control API takes to make an order: any order field, plus short names for the customer. */
export interface NewOrderInput extends Partial<HoroshopOrder> {
  name?: string;
  phone?: string;
  email?: string;
  utm?: { source?: string; medium?: string; campaign?: string | number; term?: string; content?: string };
}

/** Subscriptions per event the shop allows (external-apis 6.2 [S]). */
export const MAX_SUBSCRIPTIONS_PER_EVENT = 5;
export const HOOK_EVENTS = [
  'order_created',
  'order_paid',
  'order_update',
  'user_signup',
  'user_update',
  'request_call_me',
  'comments_created',
] as const;

const DEFAULT_LINES: HoroshopOrderLine[] = [
  {
    article: 'CM-200',
    title: { ua: 'Кавоварка CM-200', ru: 'Кофеварка CM-200' },
    quantity: 1,
    price: 4200,
    total_price: 4200,
    type: 'product',
  },
];

export function createShopState(now: () => number, maxPerEvent = MAX_SUBSCRIPTIONS_PER_EVENT) {
  const orders: EmulatedOrder[] = [];
  const subscriptions: EmulatedSubscription[] = [];
  /** Token → when it was issued (emulator clock). */
  const tokens = new Map<string, number>();
  let nextOrderId = 1001;
  let nextSubscriptionId = 1;
  let issued = 0;

  return {
    orders,
    subscriptions,
    tokens,
    tokensIssued: () => issued,
    issueToken(): string {
      const token = randomBytes(16).toString('hex');
      tokens.set(token, now());
      issued += 1;
      return token;
    },
    /** Whether the token is one we issued and younger than ttlMs. */
    isTokenValid(token: unknown, ttlMs: number): boolean {
      if (typeof token !== 'string') return false;
      const at = tokens.get(token);
      return at !== undefined && now() - at < ttlMs;
    },
    addOrder(input: NewOrderInput = {}): HoroshopOrder {
      const { name, phone, email, utm, ...fields } = input;
      const products = fields.products ?? DEFAULT_LINES;
      const sum = products.reduce((acc, l) => acc + Number(l.total_price ?? l.price ?? 0), 0);
      const id = fields.order_id !== undefined ? Number(fields.order_id) : nextOrderId;
      nextOrderId = Math.max(nextOrderId, id) + 1;
      const order: HoroshopOrder = {
        order_id: id,
        status: 1,
        delivery_name: name ?? 'Олена Коваленко',
        delivery_phone: phone ?? '+380671234567',
        delivery_email: email ?? 'olena@example.com',
        delivery_city: 'Київ',
        delivery_type: { id: 2, title: { ua: 'Нова Пошта', ru: 'Новая Почта' } },
        payment_type: { id: 1, title: { ua: 'Оплата при отриманні', ru: 'Оплата при получении' } },
        products,
        total_sum: sum,
        total_default: sum,
        delivery_price: -1,
        currency: 'UAH',
        payed: 0,
        coupon_code: '',
        delivery_data: { deliveryOperatorType: 'novaposhta', tnNumber: null },
        analytics: {
          utm_source: utm?.source ?? '',
          utm_medium: utm?.medium ?? '',
          utm_campaign: utm?.campaign ?? '',
          utm_term: utm?.term ?? '',
          utm_content: utm?.content ?? '',
          google_client_id: '',
        },
        user: 900_000 + id,
        ...fields,
      };
      order.order_id = id;
      orders.push({ order, createdAt: now() });
      return order;
    },
    findOrder(id: number): EmulatedOrder | undefined {
      return orders.find((o) => Number(o.order.order_id) === id);
    },
    subscribe(event: string, targetUrl: string): EmulatedSubscription | 'limit' {
      if (subscriptions.filter((s) => s.event === event).length >= maxPerEvent) return 'limit';
      const sub = { id: nextSubscriptionId++, event, targetUrl };
      subscriptions.push(sub);
      return sub;
    },
    unsubscribe(id: number, targetUrl: string): boolean {
      const index = subscriptions.findIndex((s) => s.id === id && s.targetUrl === targetUrl);
      if (index < 0) return false;
      subscriptions.splice(index, 1);
      return true;
    },
    reset() {
      orders.length = 0;
      subscriptions.length = 0;
      tokens.clear();
      nextOrderId = 1001;
      nextSubscriptionId = 1;
      issued = 0;
    },
  };
}
export type ShopState = ReturnType<typeof createShopState>;

// ---- orders/get's dates: "YYYY-MM-DD", "DD.MM.YYYY", either with " HH:mm:ss", in the shop's time (Kyiv) ----

function kyivOffsetMs(at: number): number {
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat('en-US', { timeZone: 'Europe/Kyiv', timeZoneName: 'longOffset' });
  } catch {
    format = new Intl.DateTimeFormat('en-US', { timeZone: 'Europe/Kiev', timeZoneName: 'longOffset' });
  }
  const name = format.formatToParts(at).find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  const m = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
  if (!m) return 0;
  return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) * 60_000;
}

/**
 * Epoch ms of a date as orders/get takes it, or null when it is not one of its formats. A date
 * without a time is the day's start (`from`) or its last second (`to`): both ends are inclusive.
 */
export function parseShopDate(text: unknown, end: 'from' | 'to'): number | null {
  if (typeof text !== 'string') return null;
  const m =
    /^(\d{4})-(\d{2})-(\d{2})(?: (\d{2}):(\d{2}):(\d{2}))?$/.exec(text.trim()) ??
    /^(\d{2})\.(\d{2})\.(\d{4})(?: (\d{2}):(\d{2}):(\d{2}))?$/.exec(text.trim());
  if (!m) return null;
  const dotted = text.includes('.');
  const [y, mo, d] = dotted ? [m[3], m[2], m[1]] : [m[1], m[2], m[3]];
  const hasTime = m[4] !== undefined;
  const [h, mi, s] = hasTime ? [m[4], m[5], m[6]] : end === 'from' ? ['0', '0', '0'] : ['23', '59', '59'];
  const local = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  if (Number.isNaN(local)) return null;
  const epoch = local - kyivOffsetMs(local);
  // An end given to the second takes in the whole second.
  return end === 'to' ? epoch + 999 : epoch;
}
