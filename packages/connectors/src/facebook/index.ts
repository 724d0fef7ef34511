// Meta lead forms: a source whose integrations share the account's Facebook connection (a login
// with its pages and their long-lived tokens, which integrations name in their settings). What
// Facebook is (Graph calls, the login, the leadgen webhook, the lead mapping, the backfill, the test
// lead) is declared in `connections` (connection.ts); the server keeps the rows and runs the flows.
import { z } from 'zod';
import { defineConnector } from '../kit/define-connector';
import { codes } from './codes';
import { FACEBOOK_CONFIG, facebookConnections, startupWarnings } from './connection';
import { ZFacebookSettings } from './schema';

export const facebook = defineConnector({
  slug: 'facebook',
  kind: 'source',
  // The credentials live on the account's Facebook connection, never on the integration.
  connectAuth: 'elsewhere',
  auth: z.object({}).strict(),
  settings: ZFacebookSettings,
  config: FACEBOOK_CONFIG,
  connections: facebookConnections,
  // CRM stages back to Meta (issue 33): through the integration's connection, keyed by the leadgen id.
  conversions: {
    connectionOf: (settings) => {
      const parsed = ZFacebookSettings.safeParse(settings);
      return parsed.success ? parsed.data.fbConnectionId : undefined;
    },
    leadIdOf: (raw) => {
      const id =
        raw && typeof raw === 'object' && Object.hasOwn(raw, 'leadgen_id')
          ? (raw as { leadgen_id: unknown }).leadgen_id
          : undefined;
      return typeof id === 'string' && /^\d{1,20}$/.test(id) ? id : undefined;
    },
    holdOn: ['FACEBOOK_TOKEN', 'FACEBOOK_CAPI_PERMISSION', 'FACEBOOK_DATASET_NOT_FOUND'],
    tooOld: 'FACEBOOK_CAPI_TOO_OLD',
    datasetGone: 'FACEBOOK_DATASET_NOT_FOUND',
  },
  codes,
  startupWarnings,
  // EMULATORS=true (demo installs, end-to-end tests): the Graph emulator, loaded only then.
  demo: () => import('./demo').then((m) => m.startDemo()),
});

export {
  CAPI_ACTION_SOURCE,
  CAPI_DEDUPE_WINDOW_HOURS,
  CAPI_EVENT_SOURCE,
  CAPI_INITIAL_EVENT,
  CAPI_INITIAL_STAGE,
  CAPI_LEAD_EVENT_SOURCE,
  CAPI_MAX_AGE_S,
  CAPI_MAX_EVENTS,
  type CapiAnswer,
  type CapiClient,
  type CapiDataset,
  type CapiReason,
  type CapiSendOptions,
  type CrmEvent,
  type CrmEventInput,
  capiClient,
  capiOf,
  cleanEventName,
  crmEvent,
  crmEventId,
  defaultEventName,
} from './capi';
export {
  FB_SCOPES,
  type GraphAppSubscription,
  type GraphClient,
  type GraphConfig,
  type GraphDataset,
  GraphError,
  type GraphErrorInit,
  type GraphForm,
  type GraphLead,
  type GraphPage,
  type GraphQuestion,
  type GraphToken,
  type GraphTokenInfo,
  graphClient,
  LEAD_FIELDS,
} from './client';
export { FB_DEDUPE_WINDOW_HOURS, facebookVerifyToken, graphReason, staleGraphVersions } from './connection';
export {
  DEFAULT_DIALOG_URL,
  DEFAULT_GRAPH_URL,
  GRAPH_API_VERSION,
  GRAPH_VERSIONS,
  type GraphVersionStatus,
  graphVersionStatus,
  versionOfUrl,
} from './versions';
export {
  type LeadgenNotification,
  metaJson,
  parseLeadgenWebhook,
  SIGNATURE_256_HEADER,
  SIGNATURE_SHA1_HEADER,
  signBody,
  signBodySha1,
  verifySignature,
} from './webhook';
