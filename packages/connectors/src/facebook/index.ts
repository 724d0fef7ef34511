// Meta lead forms: a source. The definition says what the server needs to know (a source, its
// settings, its OAuth); the sign-in itself stays in the server's facebook module, because it does not
// end in credentials on the integration: it stores a Facebook connection of the account with its
// pages and their long-lived tokens, which integrations then name in their settings.
// The Graph client, the webhook's signature and payload, and the lead mapping.
import { ZFacebookSettings } from '@leadrelay/shared';
import { z } from 'zod';
import { defineConnector } from '../kit/define-connector';
import { FB_SCOPES } from './client';

export const facebook = defineConnector({
  slug: 'facebook',
  kind: 'source',
  // The credentials live on the account's Facebook connection, never on the integration.
  connectAuth: 'elsewhere',
  auth: z.object({}).strict(),
  settings: ZFacebookSettings,
  oauth: {
    clientId: 'FACEBOOK_APP_ID',
    clientSecret: 'FACEBOOK_APP_SECRET',
    authorizeUrl: (cfg) => String(cfg.FACEBOOK_DIALOG_URL),
    tokenUrl: (cfg) => `${cfg.FACEBOOK_GRAPH_URL}/oauth/access_token`,
    scopes: FB_SCOPES,
    callback: { base: 'authHost', path: '/facebook/callback' },
    consentUrl: (client, state) => {
      const url = new URL(client.authorizeUrl);
      url.searchParams.set('client_id', client.clientId);
      url.searchParams.set('redirect_uri', client.redirectUri);
      url.searchParams.set('state', state);
      url.searchParams.set('scope', FB_SCOPES.join(','));
      url.searchParams.set('response_type', 'code');
      return url.toString();
    },
    // No exchangeCode: the server's facebook module trades the code (long-lived token, pages).
  },
});

export {
  FB_SCOPES,
  type GraphAppSubscription,
  type GraphClient,
  type GraphConfig,
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
