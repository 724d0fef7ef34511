// Horoshop (a Ukrainian shop platform) as a lead source: an order becomes one lead. The source
// (source.ts) builds the flat payload our ingest takes from each order (webhook or poll), and the
// manifest gives the mapping tab a sample order made with the same function, so what the user maps
// is what arrives.
// Field names of an order: docs/connectors/horoshop.md (which are confirmed and which assumed).

import { setOwn } from '@leadrelay/shared';
import { z } from 'zod';

/** A product line of an order (orders/get `products[]`). */
export interface HoroshopOrderLine {
  article?: string | number;
  /** A string, or one per site language ({ ua, ru, en }). */
  title?: string | Record<string, unknown>;
  quantity?: number | string;
  price?: number | string;
  total_price?: number | string;
  type?: string;
}

/** An order as orders/get answers it (and, by assumption, as an order webhook carries it). */
export interface HoroshopOrder {
  order_id: number | string;
  status?: number | string | { id?: number | string; title?: unknown };
  delivery_name?: string;
  delivery_phone?: string;
  delivery_email?: string;
  delivery_city?: string;
  delivery_address?: string;
  delivery_type?: string | { id?: number | string; title?: unknown };
  payment_type?: string | { id?: number | string; title?: unknown };
  comment?: string;
  products?: HoroshopOrderLine[];
  total_sum?: number | string;
  total_default?: number | string;
  delivery_price?: number | string;
  currency?: string;
  payed?: number | string | boolean;
  coupon_code?: string;
  delivery_data?: { tnNumber?: string | null; [key: string]: unknown };
  analytics?: Record<string, unknown>;
  [key: string]: unknown;
}

const UTM = ['source', 'medium', 'campaign', 'term', 'content'] as const;
/** Text longer than this is cut: a payload is a lead, not an archive of the order. */
const MAX_TEXT = 2000;
const MAX_LINES = 50;

const text = (value: unknown): string | undefined => {
  if (typeof value === 'string') {
    const trimmed = value.trim();
    return trimmed ? trimmed.slice(0, MAX_TEXT) : undefined;
  }
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
};

/** A title in the shop's languages: Ukrainian first, then any other. */
export function horoshopTitle(value: unknown): string | undefined {
  const plain = text(value);
  if (plain) return plain;
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const byLang = value as Record<string, unknown>;
  for (const lang of ['ua', 'uk', 'en', 'ru']) {
    const t = text(byLang[lang]);
    if (t) return t;
  }
  for (const v of Object.values(byLang)) {
    const t = text(v);
    if (t) return t;
  }
  return undefined;
}

/** A named thing ("Нова Пошта") given as a string, a title object or { title }. */
const nameOf = (value: unknown): string | undefined => {
  if (value && typeof value === 'object' && !Array.isArray(value) && 'title' in value) {
    return horoshopTitle((value as { title?: unknown }).title);
  }
  return horoshopTitle(value);
};

/** A money amount as written ("1 200,50" and 1200.5 alike), or undefined. */
export function horoshopAmount(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const compact = value.replace(/[\s\u00a0]/g, '').replace(',', '.');
  if (!/^-?\d+(\.\d+)?$/.test(compact)) return undefined;
  return Number(compact);
}

const amountText = (value: unknown): string | undefined => {
  const n = horoshopAmount(value);
  return n === undefined ? undefined : String(Math.round(n * 100) / 100);
};

/** "Кавоварка × 1 = 1200": one line of the order, in the shop's own words and numbers. */
function lineText(line: HoroshopOrderLine): string | undefined {
  const title = horoshopTitle(line.title) ?? text(line.article);
  if (!title) return undefined;
  const quantity = amountText(line.quantity);
  const total = amountText(line.total_price) ?? amountText(line.price);
  return `${title}${quantity ? ` × ${quantity}` : ''}${total ? ` = ${total}` : ''}`;
}

/** The order's id as text: a positive integer (as a number or digits), else undefined. */
export function horoshopOrderId(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return String(value);
  if (typeof value === 'string' && /^\d{1,18}$/.test(value.trim()) && Number(value) > 0) return value.trim();
  return undefined;
}

/**
 * The flat payload of an order: the customer (name, phone, email), the items, the total, delivery
 * and payment, UTM from the shop's analytics, and the order's id. `comment` sums the order up in the
 * shop's own words and numbers (no words of ours: it goes to a CRM as it is).
 */
export function horoshopOrderPayload(order: HoroshopOrder): Record<string, string> {
  const payload: Record<string, string> = {};
  const put = (key: string, value: string | undefined) => {
    if (value) setOwn(payload, key, value);
  };
  const id = horoshopOrderId(order.order_id) ?? text(order.order_id) ?? '';
  put('order_id', id);
  put('name', text(order.delivery_name));
  put('phone', text(order.delivery_phone));
  put('email', text(order.delivery_email));

  const lines = (Array.isArray(order.products) ? order.products : [])
    .slice(0, MAX_LINES)
    .map((l) => (l && typeof l === 'object' ? lineText(l) : undefined))
    .filter((l): l is string => !!l);
  put('items', lines.join('; ').slice(0, MAX_TEXT));
  if (Array.isArray(order.products)) put('items_count', String(order.products.length));

  const currency = text(order.currency);
  const total = amountText(order.total_sum);
  put('total', total);
  put('currency', currency);
  const fullTotal = amountText(order.total_default);
  if (fullTotal && fullTotal !== total) put('total_before_discount', fullTotal);
  // -1 means "not calculated" (measured by others): only a real price is kept.
  const delivery = horoshopAmount(order.delivery_price);
  if (delivery !== undefined && delivery > 0) put('delivery_price', amountText(delivery));
  put('coupon', text(order.coupon_code));

  const deliveryParts = [nameOf(order.delivery_type), text(order.delivery_city), text(order.delivery_address)];
  put('delivery', deliveryParts.filter(Boolean).join(', '));
  put('delivery_city', text(order.delivery_city));
  put('delivery_address', text(order.delivery_address));
  put('ttn', text(order.delivery_data?.tnNumber));
  put('payment', nameOf(order.payment_type));
  if (order.payed !== undefined && order.payed !== null) {
    payload.paid = order.payed === true || order.payed === 1 || order.payed === '1' ? '1' : '0';
  }
  const status = order.status;
  put('status', typeof status === 'object' && status ? text(status.id) : text(status));

  const analytics = order.analytics && typeof order.analytics === 'object' ? order.analytics : {};
  // utm_campaign can arrive as a number (Google Ads ids): String() it like the rest.
  for (const key of UTM) put(`utm_${key}`, text(analytics[`utm_${key}`]));
  put('google_client_id', text(analytics.google_client_id));

  const summary = [
    id ? `#${id}` : undefined,
    payload.items,
    total ? `${total}${currency ? ` ${currency}` : ''}` : undefined,
    payload.delivery,
    text(order.comment),
  ].filter(Boolean);
  put('comment', summary.join('\n').slice(0, MAX_TEXT));
  return payload;
}

/** An order for the mapping preview, shaped like orders/get answers it. */
export const HOROSHOP_SAMPLE_ORDER: HoroshopOrder = {
  order_id: 1024,
  status: 1,
  delivery_name: 'Олена Коваленко',
  delivery_phone: '+380671234567',
  delivery_email: 'olena@example.com',
  delivery_city: 'Київ',
  delivery_type: { id: 2, title: { ua: 'Нова Пошта' } },
  payment_type: { id: 1, title: { ua: 'Оплата при отриманні' } },
  products: [
    {
      article: 'CM-200',
      title: { ua: 'Кавоварка CM-200' },
      quantity: 1,
      price: 4200,
      total_price: 4200,
      type: 'product',
    },
    { article: 'F-10', title: { ua: 'Фільтри, 10 шт.' }, quantity: 2, price: 150, total_price: 300, type: 'product' },
  ],
  total_sum: 4500,
  total_default: 4500,
  delivery_price: -1,
  currency: 'UAH',
  payed: 0,
  analytics: { utm_source: 'google', utm_medium: 'cpc', utm_campaign: 'spring', utm_term: '', utm_content: '' },
};

// ---- The API of a Horoshop source (spec 7 "Shop") ----

/**
 * The shop's address as a URL origin: "myshop.com.ua", "https://myshop.com.ua/admin" and
 * "MyShop.com.ua" all give https://myshop.com.ua. Plain http is kept only for addresses that
 * cannot have a certificate (localhost, IP addresses: a test shop); elsewhere it becomes https,
 * so a password never travels in the clear. Undefined when it is not an address.
 */
export function horoshopShopUrl(input: string): string | undefined {
  const trimmed = input.trim();
  if (!trimmed || trimmed.length > 300 || /\s/.test(trimmed)) return undefined;
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  if (url.username || url.password || !url.hostname) return undefined;
  const host = url.hostname;
  const isIp = /^\d{1,3}(\.\d{1,3}){3}$/.test(host) || host.startsWith('[');
  const isLocal = host === 'localhost' || isIp;
  // A public name needs a dot and letters in its last label (myshop.ua, not "myshop").
  if (!isLocal && !/\.[a-z][a-z0-9-]*$/i.test(host)) return undefined;
  if (url.protocol === 'http:' && !isLocal) url.protocol = 'https:';
  return url.origin;
}

const required = (i: { input: unknown }) => (i.input === undefined ? 'REQUIRED' : 'INVALID_TYPE');

/** What a Horoshop integration keeps in its settings: the shop's address (never a secret). */
export const ZHoroshopSettings = z
  .object({
    shopUrl: z
      .string()
      .max(300)
      .refine((v) => horoshopShopUrl(v) === v, { error: 'HOROSHOP_DOMAIN_INVALID' })
      .optional(),
  })
  .passthrough();
export type HoroshopSettings = z.infer<typeof ZHoroshopSettings>;

/**
 * POST /api/integrations/{id}/horoshop/auth: the shop's address and either an API admin's login and
 * password (Settings → Admins in the shop) or a token the shop gave out. Login and password let
 * LeadRelay renew the 600-second token itself; a token alone works until it lapses.
 */
export const ZHoroshopAuthBody = z
  .object({
    domain: z
      .string({ error: required })
      .trim()
      .min(1, { error: 'REQUIRED' })
      .max(300, { error: 'HOROSHOP_DOMAIN_INVALID' })
      .refine((v) => horoshopShopUrl(v) !== undefined, { error: 'HOROSHOP_DOMAIN_INVALID' }),
    login: z.string({ error: required }).trim().max(200, { error: 'MAX_LENGTH_200' }).optional(),
    password: z.string({ error: required }).max(500, { error: 'MAX_LENGTH_500' }).optional(),
    token: z.string({ error: required }).trim().max(500, { error: 'MAX_LENGTH_500' }).optional(),
  })
  .strict()
  .superRefine((body, ctx) => {
    const hasLogin = !!body.login;
    const hasPassword = !!body.password;
    if (hasLogin || hasPassword || !body.token) {
      if (!hasLogin) ctx.addIssue({ code: 'custom', path: ['login'], message: 'REQUIRED' });
      if (!hasPassword) ctx.addIssue({ code: 'custom', path: ['password'], message: 'REQUIRED' });
    }
  });
export type HoroshopAuthBody = z.infer<typeof ZHoroshopAuthBody>;

export const HOROSHOP_WEBHOOK_STATUSES = ['none', 'active', 'removed'] as const;
export type HoroshopWebhookStatus = (typeof HOROSHOP_WEBHOOK_STATUSES)[number];

/** One order the shop sent (or the poll found): what became of it is its hook's status. */
export const ZHoroshopOrderRow = z.object({
  orderId: z.string(),
  name: z.string().nullable(),
  phone: z.string().nullable(),
  total: z.string().nullable(),
  currency: z.string().nullable(),
  /** How it came first. */
  via: z.enum(['webhook', 'poll']),
  /** How many times the shop sent it (webhook repeats and polls that found it again). */
  timesSeen: z.number().int(),
  hookId: z.string().nullable(),
  /** The hook's status now (accepted, delivered, held …); null when the hook was deleted. */
  status: z.string().nullable(),
  receivedAt: z.string(),
  lastSeenAt: z.string(),
});
export type HoroshopOrderRow = z.infer<typeof ZHoroshopOrderRow>;

/** GET /api/integrations/{id}/horoshop: the connection, its webhook, its poll and the last orders. */
export const ZHoroshopState = z.object({
  shopUrl: z.string().nullable(),
  /** password: renews its own token; token: works until the token lapses; none: not connected. */
  authMode: z.enum(['password', 'token', 'none']),
  login: z.string().nullable(),
  webhook: z.object({
    status: z.enum(HOROSHOP_WEBHOOK_STATUSES),
    registeredAt: z.string().nullable(),
    removedAt: z.string().nullable(),
  }),
  poll: z.object({
    /** Orders created before this were looked for (null: not yet). */
    polledUntil: z.string().nullable(),
    lastPollAt: z.string().nullable(),
    /** An error code (HOROSHOP_…), with the shop's words after a colon; null when the last poll worked. */
    lastError: z.string().nullable(),
  }),
  orders: z.array(ZHoroshopOrderRow),
});
export type HoroshopState = z.infer<typeof ZHoroshopState>;
