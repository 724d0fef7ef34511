// Prom.ua (Ukraine's largest marketplace) as a lead SOURCE: each order becomes one lead. The
// merchant's API token (Bearer, made in the Prom cabinet with the orders permission) is checked with
// Prom before it is stored; a poll of orders/list every 5 minutes takes new orders since a cursor,
// each once by its id, with the buyer, phone, items, total, delivery, payment and status. A token
// Prom refuses (401/403) marks the source broken until a new one is connected; 429 and 5xx are
// waited out and tried again, the cursor held, so no order is lost. Everything the server needs is
// declared here (source.ts); the server mounts and runs it for every source alike.
import { defineConnector } from '../kit/define-connector';
import { checkToken, PROMUA_API_URL, type PromuaContext } from './client';
import { codes } from './codes';
import { type PromuaAuth, type PromuaSettings, ZPromuaAuth, ZPromuaSettings } from './schema';
import { promuaErrors, promuaSource } from './source';

export const promua = defineConnector<PromuaAuth, PromuaSettings>({
  slug: 'promua',
  kind: 'source',
  codes,
  // EMULATORS=true (demo installs, end-to-end tests): its emulator, loaded only then.
  demo: () => import('./demo').then((m) => m.startDemo()),
  // The token comes only through the source's own connect, which checks it with Prom first.
  connectAuth: 'own',
  auth: ZPromuaAuth,
  settings: ZPromuaSettings,
  config: { PROMUA_API_URL: { type: 'url', default: PROMUA_API_URL } },
  baseUrl: (cfg) => cfg.PROMUA_API_URL as string | undefined,
  errors: promuaErrors,
  source: promuaSource,
  testConnection: (ctx) => checkToken(ctx as PromuaContext),
});

export type { PromuaAuth } from './schema';
