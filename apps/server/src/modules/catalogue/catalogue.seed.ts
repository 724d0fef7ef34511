// The integration types the product ships with. The seed inserts what is missing (by category key
// and type slug) and never touches a row that exists, so an operator's edits survive restarts.
import { DESTINATION_TYPES, type IntegrationType } from '@leadrelay/shared';

export interface SeedCategory {
  key: string;
  name: string;
  order: number;
}

export interface SeedSetting {
  slug: IntegrationType;
  name: string;
  kind: 'source' | 'destination';
  category: string;
  tags: string[];
}

export const SEED_CATEGORIES: readonly SeedCategory[] = [
  { key: 'sources', name: 'Sources', order: 1 },
  { key: 'crm', name: 'CRM', order: 2 },
  { key: 'messaging', name: 'Messaging', order: 3 },
  { key: 'analytics', name: 'Analytics', order: 4 },
  { key: 'webhooks', name: 'Webhooks', order: 5 },
];

export const SEED_SETTINGS: readonly SeedSetting[] = [
  { slug: 'facebook', name: 'Facebook Lead Ads', kind: 'source', category: 'sources', tags: ['ads', 'forms'] },
  { slug: 'webhook', name: 'Webhook', kind: 'source', category: 'sources', tags: ['forms', 'api'] },
  { slug: 'parser', name: 'E-mail parser', kind: 'source', category: 'sources', tags: ['email'] },
  { slug: 'horoshop', name: 'Horoshop', kind: 'source', category: 'sources', tags: ['shop'] },
  { slug: 'googleads', name: 'Google Ads', kind: 'source', category: 'sources', tags: ['ads', 'forms'] },
  { slug: 'promua', name: 'Prom.ua', kind: 'source', category: 'sources', tags: ['shop'] },
  { slug: 'tiktok', name: 'TikTok Lead Forms', kind: 'source', category: 'sources', tags: ['ads', 'forms'] },
  { slug: 'amocrm', name: 'amoCRM', kind: 'destination', category: 'crm', tags: ['crm'] },
  { slug: 'pipedrive', name: 'Pipedrive', kind: 'destination', category: 'crm', tags: ['crm'] },
  { slug: 'uspacy', name: 'Uspacy', kind: 'destination', category: 'crm', tags: ['crm'] },
  { slug: 'bitrix24', name: 'Bitrix24', kind: 'destination', category: 'crm', tags: ['crm'] },
  { slug: 'keycrm', name: 'KeyCRM', kind: 'destination', category: 'crm', tags: ['crm', 'shop'] },
  { slug: 'alfasms', name: 'AlphaSMS', kind: 'destination', category: 'messaging', tags: ['sms'] },
  { slug: 'telegram', name: 'Telegram', kind: 'destination', category: 'messaging', tags: ['messaging'] },
  { slug: 'ga', name: 'Google Analytics 4', kind: 'destination', category: 'analytics', tags: ['analytics'] },
  { slug: 'googlesheets', name: 'Google Sheets', kind: 'destination', category: 'analytics', tags: ['analytics'] },
  { slug: 'sendpulse', name: 'SendPulse', kind: 'destination', category: 'messaging', tags: ['email', 'messaging'] },
  { slug: 'http', name: 'HTTP webhook', kind: 'destination', category: 'webhooks', tags: ['api'] },
];

/** Sources may send to every destination type. */
export const seedDestinationsOf = (s: SeedSetting): string[] => (s.kind === 'source' ? [...DESTINATION_TYPES] : []);

/** Source types the server implements itself (ingest's webhook, the parsers module), without a connector. */
export const BUILT_IN_TYPES: ReadonlySet<string> = new Set(['webhook', 'parser']);

/**
 * Types with screens and calls of their own for privileged roles only (spec 2 and 6: parsers): the
 * catalogue lists them hidden and the integrations API does not create them; their own API does.
 */
export const STAFF_TYPES: ReadonlySet<string> = new Set(['parser']);
