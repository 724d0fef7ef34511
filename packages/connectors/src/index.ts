// The explicit list of connectors (architecture: no codegen registry).
import { alfasms } from './alfasms';
import { amocrm } from './amocrm';
import { bitrix24 } from './bitrix24';
import { facebook } from './facebook';
import { ga } from './ga';
import { googleads } from './googleads';
import { googlesheets } from './googlesheets';
import { horoshop } from './horoshop';
import { http } from './http';
import { keycrm } from './keycrm';
import type { ConnectorCodes } from './kit/codes';
import type { ConnectorDefinition } from './kit/types';
import { pipedrive } from './pipedrive';
import { promua } from './promua';
import { sendpulse } from './sendpulse';
import { telegram } from './telegram';
import { tiktok } from './tiktok';
import { uspacy } from './uspacy';

export { amocrm } from './amocrm';
export {
  CAPI_INITIAL_STAGE,
  CAPI_MAX_AGE_S,
  CAPI_MAX_EVENTS,
  type CapiAnswer,
  type CapiClient,
  type CapiDataset,
  type CapiReason,
  type CrmEvent,
  type CrmEventInput,
  capiClient,
  capiOf,
  crmEvent,
  crmEventId,
  DEFAULT_DIALOG_URL as FACEBOOK_DEFAULT_DIALOG_URL,
  DEFAULT_GRAPH_URL as FACEBOOK_DEFAULT_GRAPH_URL,
  FB_SCOPES,
  facebook,
  facebookVerifyToken,
  GRAPH_API_VERSION,
  type GraphClient,
  type GraphConfig,
  GraphError,
  type GraphForm,
  type GraphLead,
  type GraphPage,
  type GraphQuestion,
  type GraphToken,
  graphClient,
  graphVersionStatus,
  LEAD_FIELDS as FB_LEAD_FIELDS,
  type LeadgenNotification,
  parseLeadgenWebhook,
  signBody,
  staleGraphVersions,
  verifySignature,
  versionOfUrl as graphVersionOfUrl,
} from './facebook';

export * from './horoshop';
export { http, ZHttpAuth, ZHttpSettings } from './http';
export { SIGNATURE_HEADER, sign, TIMESTAMP_HEADER } from './http/client';
export { type HttpLeadBody, toHttpBody } from './http/mapping';
export { cacheOf, createConnectorCache } from './kit/cache';
export { type CodeWords, type ConnectorCodes, defineCodes } from './kit/codes';
export * from './kit/connection';
export { defineConnector } from './kit/define-connector';
export { ConnectRefusal, DeferredError, type ErrorCode, PermanentError, RetryableError } from './kit/errors';
export {
  type ClassifiedResponse,
  classifyResponse,
  destinationMessage,
  isSensitiveHeader,
  parseRetryAfter,
  redact,
  redactUrl,
} from './kit/http-errors';
export {
  createKeyedLock,
  type KeyedLock,
  type LockKeys,
  lockAll,
  personLockKeys,
  sortedKeys,
} from './kit/keyed-lock';
export {
  checkUrl,
  createSafeFetch,
  DEFAULT_MAX_REDIRECTS,
  DEFAULT_TIMEOUT_MS,
  endpointAllowed,
  isBlockedAddress,
  type LookupFn,
  type ResolvedAddress,
  type SafeFetchOptions,
} from './kit/safe-fetch';
export type * from './kit/source';
export type * from './kit/types';
// The Pipedrive–SendPulse widget (apps/server modules/widget) reads the person through Pipedrive's client.
export { pipedrive, pipedriveClient } from './pipedrive';
export type { PipedriveSettings } from './pipedrive/schema';
export { type ChatPerson, sendpulse, sendpulseChat } from './sendpulse';
export type { SendpulseAuth, SendpulseSettings } from './sendpulse/schema';
export {
  BOT_WORDS as TELEGRAM_BOT_WORDS,
  type CardAction,
  type CardLanguage,
  callTelegram,
  cardKeyboard,
  cardText,
  escapeHtml as escapeTelegramHtml,
  parseCallbackData,
  passedFooter,
  reactionFooter,
  TELEGRAM_API_URL,
  type TelegramAuth,
  type TelegramBotInfo,
  type TelegramDelivery,
  type TelegramRecipient,
  type TelegramRecord,
  telegram,
  telegramApi,
  telegramClientOptions,
  telegramError,
  tokenOf as telegramTokenOf,
  ZTelegramAuth,
  ZTelegramBotInfo,
} from './telegram';
export { uspacy } from './uspacy';

// The one list a new connector joins (one line).
// biome-ignore lint/suspicious/noExplicitAny: connectors differ in their auth and settings types
const list: ConnectorDefinition<any, any>[] = [
  alfasms,
  amocrm,
  bitrix24,
  facebook,
  ga,
  googleads,
  googlesheets,
  horoshop,
  http,
  keycrm,
  pipedrive,
  promua,
  sendpulse,
  telegram,
  tiktok,
  uspacy,
];

export const connectors: ReadonlyMap<string, ConnectorDefinition<unknown, unknown>> = new Map(
  list.map((c) => [c.slug, c]),
);

/** The connector of an integration type, or undefined while it is not built (its type stays hidden). */
export function getConnector(slug: string): ConnectorDefinition<unknown, unknown> | undefined {
  return connectors.get(slug);
}

/**
 * Every connector's own codes (kit/codes.ts) by slug: the server unions their error keys' statuses,
 * reasons and their words with the shared generic ones.
 */
export const connectorCodes: ReadonlyMap<string, ConnectorCodes> = new Map(
  list.flatMap((c) => {
    const codes: ConnectorCodes | undefined = c.codes;
    return codes ? [[c.slug, codes] as const] : [];
  }),
);
