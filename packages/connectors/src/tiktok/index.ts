// TikTok lead forms (Instant Forms): a source whose integrations share the account's TikTok for
// Business connection (a long-term advertiser token, the ad accounts it reaches, which integrations
// name in their settings with one of their forms). What TikTok is (its API calls, the consent, the
// signed LEAD webhook that carries each lead, the test lead) is declared in `connections`
// (connection.ts); the server keeps the rows and runs the flows.
import { z } from 'zod';
import { defineConnector } from '../kit/define-connector';
import { codes } from './codes';
import { TIKTOK_CONFIG, tiktokConnections } from './connection';
import { ZTiktokSettings } from './schema';

export const tiktok = defineConnector({
  slug: 'tiktok',
  kind: 'source',
  // The credentials live on the account's TikTok connection, never on the integration.
  connectAuth: 'elsewhere',
  auth: z.object({}).strict(),
  settings: ZTiktokSettings,
  config: TIKTOK_CONFIG,
  connections: tiktokConnections,
  codes,
  // EMULATORS=true (demo installs, end-to-end tests): the TikTok emulator, loaded only then.
  demo: () => import('./demo').then((m) => m.startDemo()),
});
