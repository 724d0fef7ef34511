// The server's modules (issue 29): app.ts wires each the same way, from the descriptor its door
// exports (modules/server-module.ts); adding a module is a line in APP_MODULES. Their order is
// the order their routes register in (the API document lists them so) and their environment keys
// are read in. Tenant-data cleaners have an order of their own, below.
import { readEnv } from './env';
import { accountModule } from './modules/account';
import { apiKeysModule, authenticateApiKey } from './modules/api-keys';
import { auditModule } from './modules/audit';
import { authModule } from './modules/auth';
import { catalogueModule } from './modules/catalogue';
import { collectionsModule } from './modules/collections';
import { commentsCleaner, commentsModule } from './modules/comments';
import { connectionsCleaner, connectionsModule } from './modules/connections';
import { conversionsModule } from './modules/conversions';
import { crmEventsModule, unwatchIntegration, watchAfterConnect } from './modules/crm-events';
import { currencyModule } from './modules/currency';
import { deliveryErrorsModule } from './modules/delivery-errors';
import { escalationModule } from './modules/escalation';
import { guardianModule } from './modules/guardian';
import { holdsModule } from './modules/holds';
import { hooksModule, routingCleaner } from './modules/hooks';
import { ingestModule } from './modules/ingest';
import { collectionsCleaner, integrationsCleaner, integrationsModule } from './modules/integrations';
import { mailPreviewModule } from './modules/mail-preview';
import { bearerOf, mcpModule } from './modules/mcp';
import { newsModule } from './modules/news';
import { opsModule } from './modules/ops';
import { parsersCleaner, parsersModule } from './modules/parsers';
import { paymentsCleaner, paymentsModule } from './modules/payments';
import { plansModule } from './modules/plans';
import { reactionsModule } from './modules/reactions';
import { referralsModule } from './modules/referrals';
import { superUsersModule } from './modules/super-users';
import { supportChatModule } from './modules/support-chat';
import { telegramModule } from './modules/telegram';
import { translationsModule } from './modules/translations';
import { widgetModule } from './modules/widget';

/**
 * Clearing an account's data runs these in this order: leads and hooks before the integrations
 * they reference (profile and login are never cleared). Removing an account also takes at once
 * what reaches beyond it: its account connections' and assets' tokens, its saved card.
 */
const TENANT_DATA = {
  cleaners: [
    commentsCleaner,
    routingCleaner,
    parsersCleaner,
    integrationsCleaner,
    collectionsCleaner,
    connectionsCleaner,
  ],
  onRemove: [connectionsCleaner, paymentsCleaner],
};

export const APP_MODULES = [
  opsModule,
  mailPreviewModule,
  authModule,
  accountModule(TENANT_DATA),
  // Account API keys (issue 34): the keys' routes; the auth plugin takes keys through app.ts.
  apiKeysModule,
  superUsersModule(TENANT_DATA),
  translationsModule,
  catalogueModule,
  plansModule,
  // Our CRM webhook (speed to lead) goes before the destination does, and comes with every connect
  // of a connector that declares a stage watch. The integrations module mounts every connector's
  // routes and aliases: no module is one connector's.
  integrationsModule({ beforeDelete: unwatchIntegration, afterConnect: watchAfterConnect }),
  collectionsModule,
  ingestModule,
  hooksModule,
  reactionsModule,
  guardianModule,
  deliveryErrorsModule,
  auditModule,
  crmEventsModule,
  telegramModule,
  widgetModule,
  currencyModule,
  referralsModule,
  paymentsModule,
  // Account connections: logins several integrations share, their assets and events.
  connectionsModule,
  // CRM stages back to the ad platform (issue 33): a source's settings, the outbox and its sender.
  conversionsModule,
  newsModule,
  commentsModule,
  supportChatModule,
  parsersModule,
  holdsModule,
  escalationModule,
  // The MCP server at /mcp (issue 34 part 2), signed in with the account's API keys (part 1).
  mcpModule({ authenticator: (deps) => (req) => authenticateApiKey(deps.db, bearerOf(req) ?? '') }),
] as const;

/** The environment, with the keys the modules declare (main.ts and the command-line tools read it so). */
export const loadEnv = (source: NodeJS.ProcessEnv = process.env) => readEnv(source, APP_MODULES);

export type Env = ReturnType<typeof loadEnv>;
