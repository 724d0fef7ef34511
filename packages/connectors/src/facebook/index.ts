// Meta lead forms: a source, not a destination (no connector definition; the server's facebook module
// drives it). The Graph client, the webhook's signature and payload, and the lead mapping.
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
  type LeadgenNotification,
  metaJson,
  parseLeadgenWebhook,
  SIGNATURE_256_HEADER,
  SIGNATURE_SHA1_HEADER,
  signBody,
  signBodySha1,
  verifySignature,
} from './webhook';
