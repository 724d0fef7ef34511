// Horoshop (a Ukrainian shop platform) as a lead SOURCE: each order becomes one lead. The shop PUTs
// an order webhook to our receiver (registered with hooks/subscribe), and a poll of orders/get
// covers a webhook that never came. The definition says what the server's generic parts need (a
// source, its credentials and settings, a connection check); the receiver, the poll and the spec's
// own paths (POST /api/integrations/{id}/horoshop/auth and .../webhooks) live in the server's
// horoshop module, over the functions exported here.
import { type HoroshopSettings, ZHoroshopSettings } from '@leadrelay/shared';
import { defineConnector } from '../kit/define-connector';
import { checkAccess, type HoroshopAuth, ZHoroshopAuth } from './client';

export const horoshop = defineConnector<HoroshopAuth, HoroshopSettings>({
  slug: 'horoshop',
  kind: 'source',
  // EMULATORS=true (demo installs, end-to-end tests): its emulator, loaded only then.
  demo: () => import('./demo').then((m) => m.startDemo()),
  // Login and password (or a token) typed in: PUT .../connect works too, the spec's auth path checks them first.
  connectAuth: 'manual',
  auth: ZHoroshopAuth,
  settings: ZHoroshopSettings,
  // A token (signing in when it lapses) and one order asked for: the address is a Horoshop API that takes us.
  testConnection: (ctx) => checkAccess(ctx),
});

export {
  callFunction as horoshopCall,
  checkAccess as horoshopCheckAccess,
  type HoroshopAuth,
  type HoroshopContext,
  type HoroshopFailure,
  hasPassword as horoshopHasPassword,
  ORDER_EVENT as HOROSHOP_ORDER_EVENT,
  orderStatuses as horoshopOrderStatuses,
  ordersPage as horoshopOrdersPage,
  ordersSince as horoshopOrdersSince,
  shopDateTime as horoshopShopDateTime,
  shopWordsOf as horoshopShopWords,
  signIn as horoshopSignIn,
  subscribe as horoshopSubscribe,
  TOKEN_MARGIN_MS as HOROSHOP_TOKEN_MARGIN_MS,
  TOKEN_TTL_MS as HOROSHOP_TOKEN_TTL_MS,
  unsubscribe as horoshopUnsubscribe,
  ZHoroshopAuth,
} from './client';
export { MAX_ORDERS_PER_BODY as HOROSHOP_MAX_ORDERS_PER_BODY, parseOrdersBody as parseHoroshopOrders } from './mapping';
