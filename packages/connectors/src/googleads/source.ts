// Google Ads lead forms as a lead SOURCE, declared for the server's generic machinery (kit/source.ts).
// Google POSTs each lead to the address the advertiser pasted into the lead form, with the key pasted
// beside it inside the body (`google_key`); nobody can subscribe us at Google and there is nothing to
// poll (leads are not readable through the API for a form's webhook), so the source is one receiver:
//   - the address is our receiver with the integration's secret token in its path;
//   - the key is ours, made by the connect (POST …/connect or …/googleads/key): 32 random bytes,
//     sealed as the integration's credentials; making it again replaces it, so the old one stops
//     working at once (the address stays);
//   - a body whose key is not the integration's is refused (403 GOOGLEADS_KEY_INVALID) before
//     anything is stored; `lead_id` is the item's id, so Google's retries make one lead;
//   - `is_test` ("Send test data" in Google Ads) is taken as a lead marked TEST_LEAD in the lead log.
import { randomBytes } from 'node:crypto';
import { normalizePhone } from '@leadrelay/shared';
import type { ConnectorSource, SourceAlias, SourceView } from '../kit/source';
import { keyMatches, leadItems } from './mapping';
import {
  type GoogleAdsAuth,
  type GoogleAdsSettings,
  type GoogleAdsState,
  ZGoogleAdsKeyBody,
  ZGoogleAdsState,
} from './schema';

const DAY = 24 * 3_600_000;
export const RECEIVER = 'leads';
export const RECEIVER_PATH = '/api/googleads/webhook/:token';
/** Leads the integration page lists. */
export const RECENT_LEADS = 20;

const iso = (d: Date) => d.toISOString();

/** The address and key to paste into Google Ads, and the last leads with their leads' status. */
export function googleAdsState(view: SourceView): GoogleAdsState {
  const key = typeof view.auth.key === 'string' ? view.auth.key : null;
  const receivers = view.receivers ?? {};
  return {
    webhookUrl: key && Object.hasOwn(receivers, RECEIVER) ? (receivers[RECEIVER] ?? null) : null,
    key,
    leads: view.seen.map((s) => ({
      leadId: s.id,
      name: s.summary.name ?? null,
      phone: s.summary.phone ?? null,
      email: s.summary.email ?? null,
      test: s.summary.test === 'true',
      timesSeen: s.timesSeen,
      hookId: s.hookId,
      status: s.status,
      receivedAt: iso(s.firstSeenAt),
    })),
  };
}

/** A new key: what the advertiser pastes into the lead form beside the address. */
export const newKey = () => randomBytes(32).toString('base64url');

export const googleAdsSource: ConnectorSource<GoogleAdsAuth, GoogleAdsSettings> = {
  connect: {
    body: ZGoogleAdsKeyBody,
    // Nothing to check with Google: the key is ours, and Google only ever sends it back.
    run: async () => ({ auth: { key: newKey() }, settings: {} }),
  },
  items: {
    // Ingest's dedupe keys are per source integration: "this integration + Google's lead_id".
    key: 'googleads-lead',
    header: 'x-googleads-lead-id',
    // Google retries a lead it could not deliver; a week covers it, a month is generous.
    dedupeWindowHours: 30 * 24,
    keepForMs: 90 * DAY,
    summary: (payload) => ({
      name: payload.name ?? null,
      phone: payload.phone ? (normalizePhone(payload.phone) ?? payload.phone) : null,
      email: payload.email ?? null,
      test: payload.is_test === 'true' ? 'true' : 'false',
    }),
  },
  receivers: {
    [RECEIVER]: {
      path: RECEIVER_PATH,
      methods: ['POST'],
      summary: 'Google Ads lead form webhook: each lead (lead_id) becomes one lead, a retried one none',
      // Google's body is Google's: a custom question named __proto__ is data.
      keysAsData: true,
      verify: { check: keyMatches, refused: 'GOOGLEADS_KEY_INVALID' },
      read: leadItems,
      empty: 'GOOGLEADS_NO_LEAD',
    },
  },
  state: { recent: RECENT_LEADS, schema: ZGoogleAdsState, read: googleAdsState },
};

/** The integration page's own paths. */
export const googleAdsAliases: readonly SourceAlias[] = [
  {
    path: '/api/integrations/:id/googleads',
    source: 'state',
    summary: 'The webhook address and key to paste into a Google Ads lead form, the last leads',
  },
  {
    path: '/api/integrations/:id/googleads/key',
    source: 'connect',
    summary: 'Make a new key for the Google Ads lead form (the old one stops working)',
  },
];
