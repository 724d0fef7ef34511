// Horoshop (a Ukrainian shop platform) as a lead SOURCE: each order becomes one lead. The shop PUTs
// an order webhook to our receiver (registered with hooks/subscribe), and a poll of orders/get
// covers a webhook that never came. Everything the server needs is declared here (source.ts): the
// connect with a login and password (or a token) checked with the shop, the receiver, the poll, the
// subscription, how an order becomes a lead and what the integration page reads, and the spec's own
// paths (POST /api/integrations/{id}/horoshop/auth and .../webhooks) as aliases. The server mounts
// and runs them for every source alike; it has no Horoshop module.
import { defineConnector } from '../kit/define-connector';
import { checkAccess, type HoroshopAuth, ZHoroshopAuth } from './client';
import { codes } from './codes';
import { type HoroshopSettings, ZHoroshopSettings } from './schema';
import { horoshopAliases, horoshopErrors, horoshopSource } from './source';

export const horoshop = defineConnector<HoroshopAuth, HoroshopSettings>({
  slug: 'horoshop',
  kind: 'source',
  codes,
  // EMULATORS=true (demo installs, end-to-end tests): its emulator, loaded only then.
  demo: () => import('./demo').then((m) => m.startDemo()),
  // Login and password (or a token) typed in: PUT .../connect works too, the spec's auth path checks them first.
  connectAuth: 'manual',
  auth: ZHoroshopAuth,
  settings: ZHoroshopSettings,
  errors: horoshopErrors,
  source: horoshopSource,
  aliases: horoshopAliases,
  // A token (signing in when it lapses) and one order asked for: the address is a Horoshop API that takes us.
  testConnection: (ctx) => checkAccess(ctx),
});

// Nothing else of the folder is used outside it: the server calls only what the definition declares.
export type { HoroshopAuth } from './client';
