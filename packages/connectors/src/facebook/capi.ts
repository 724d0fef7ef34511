// Meta's Conversions API for CRM ("Conversion Leads", issue 33): each CRM stage of a Meta lead goes
// back to the advertiser's dataset (pixel) as a server event keyed by the leadgen id. This file builds
// the events exactly as Meta's payload specification documents them and classifies Graph's refusals
// with the kit's errors; the Graph calls themselves live in client.ts. The server (issue 33 part B)
// keeps the outbox, the retries and the log. What is confirmed and what is assumed:
// docs/connectors/facebook.md, "Conversions API for CRM".
import { createHash } from 'node:crypto';
import type { ConnectionCall } from '../kit/connection';
import { PermanentError, RetryableError } from '../kit/errors';
import type { AttemptTrace } from '../kit/types';
import { type GraphConfig, type GraphDataset, GraphError, graphClient } from './client';
import { DEFAULT_DIALOG_URL, DEFAULT_GRAPH_URL } from './versions';

/** `action_source` of every Conversion Leads event (payload specification: required, this value). */
export const CAPI_ACTION_SOURCE = 'system_generated';
/** `custom_data.event_source` of every Conversion Leads event (payload specification: required, this value). */
export const CAPI_EVENT_SOURCE = 'crm';
/** `custom_data.lead_event_source`: "the name of the tool where the leads are coming from". */
export const CAPI_LEAD_EVENT_SOURCE = 'LeadRelay';
/** Our stage key of the first event, sent when the lead is delivered. */
export const CAPI_INITIAL_STAGE = 'lead';
/** Its event name: Meta asks for "all stages … including the initial lead stage"; `Lead` is its standard event. */
export const CAPI_INITIAL_EVENT = 'Lead';
/** Events per request ("You can send up to 1,000 events in data"). */
export const CAPI_MAX_EVENTS = 1000;
/** An event_time older than this fails the whole request at Meta, so such events are never sent. */
export const CAPI_MAX_AGE_S = 7 * 24 * 60 * 60;
/** How long Meta deduplicates events by event_id + event_name (its deduplication guide). */
export const CAPI_DEDUPE_WINDOW_HOURS = 48;
/** Longest event name we send (assumed: Meta documents none); longer CRM stage names are cut. */
export const CAPI_MAX_EVENT_NAME = 100;

/** The reasons a Conversions API call stores (codes.ts; words in words/codes). */
export type CapiReason =
  | 'FACEBOOK_TOKEN'
  | 'FACEBOOK_CAPI_PERMISSION'
  | 'FACEBOOK_DATASET_NOT_FOUND'
  | 'FACEBOOK_CAPI_REJECTED'
  | 'FACEBOOK_CAPI_TOO_OLD';

export interface CrmEventInput {
  /** The leadgen id Meta gave the lead (the webhook's `leadgen_id`), digits. */
  leadgenId: string;
  /** Our key of the stage: CAPI_INITIAL_STAGE, or the CRM's stage id (stable, never shown). */
  stage: string;
  /** When the CRM recorded the stage (Date or epoch milliseconds). */
  at: Date | number;
  /** The stage's name in the CRM (default: CAPI_INITIAL_EVENT for the initial stage, else the key). */
  eventName?: string;
  /** Default: crmEventId(leadgenId, stage), the same on every retry. */
  eventId?: string;
  /** Default: CAPI_LEAD_EVENT_SOURCE. */
  leadEventSource?: string;
}

/** One Conversion Leads event, as Meta's payload specification lists its fields. */
export interface CrmEvent {
  event_name: string;
  /** Unix seconds. */
  event_time: number;
  action_source: typeof CAPI_ACTION_SOURCE;
  event_id: string;
  /** lead_id is kept as its digits here and written as a JSON integer by capiData (never hashed). */
  user_data: { lead_id: string };
  custom_data: { event_source: typeof CAPI_EVENT_SOURCE; lead_event_source: string };
}

const LEADGEN_ID = /^[1-9]\d{0,19}$/;
// C0/C1 controls, and the line and paragraph separators some JSON readers take for line ends.
const CONTROL = /[\p{Cc}\u2028\u2029]+/gu;

/** A name from outside made safe for Meta: no control characters, one space between words, at most `max` characters. */
export function cleanEventName(name: string, max = CAPI_MAX_EVENT_NAME): string {
  const words = String(name).replace(CONTROL, ' ').replace(/\s+/g, ' ').trim();
  // Cut by code points so that an emoji is never split into half a surrogate pair.
  const points = Array.from(words);
  return points.length > max ? points.slice(0, max).join('').trimEnd() : words;
}

/** The event name of a stage when the mapping names none. */
export function defaultEventName(stage: string, stageName?: string): string {
  if (stage === CAPI_INITIAL_STAGE) return CAPI_INITIAL_EVENT;
  return stageName ?? stage;
}

/** Stable per lead and stage, so a retry (ours or a duplicate webhook) is deduplicated by Meta too. */
export function crmEventId(leadgenId: string, stage: string): string {
  return `lr-${createHash('sha256').update(`${leadgenId}\u0000${stage}`).digest('hex').slice(0, 40)}`;
}

const rejected = (message: string) => new PermanentError(message, { code: 'FACEBOOK_CAPI_REJECTED' });

/** One CRM stage of a Meta lead as the Conversions API event Meta documents (pure). */
export function crmEvent(input: CrmEventInput): CrmEvent {
  const leadgenId = String(input.leadgenId ?? '').trim();
  if (!LEADGEN_ID.test(leadgenId)) throw rejected('The lead has no Meta leadgen id to send');
  const ms = input.at instanceof Date ? input.at.getTime() : Number(input.at);
  if (!Number.isFinite(ms) || ms <= 0) throw rejected('The stage has no time');
  const eventName = cleanEventName(input.eventName ?? defaultEventName(input.stage));
  if (!eventName) throw rejected('The stage has no name to send');
  const eventId = cleanEventName(input.eventId ?? crmEventId(leadgenId, input.stage));
  if (!eventId) throw rejected('The event has no id');
  const leadEventSource = cleanEventName(input.leadEventSource ?? CAPI_LEAD_EVENT_SOURCE) || CAPI_LEAD_EVENT_SOURCE;
  return {
    event_name: eventName,
    event_time: Math.floor(ms / 1000),
    action_source: CAPI_ACTION_SOURCE,
    event_id: eventId,
    user_data: { lead_id: leadgenId },
    custom_data: { event_source: CAPI_EVENT_SOURCE, lead_event_source: leadEventSource },
  };
}

/**
 * The `data` form field: the events as JSON, each lead_id written as the integer Meta documents.
 * Written from its digits, not through a JS number: a 16-digit leadgen id can pass 2^53 and would
 * come out changed. Safe as a text replacement: inside a JSON string every quote is escaped, so
 * `"lead_id":"<digits>"` can only be the key itself.
 */
export function capiData(events: readonly CrmEvent[]): string {
  for (const e of events) if (!LEADGEN_ID.test(e.user_data.lead_id)) throw rejected('A lead_id is not a leadgen id');
  return JSON.stringify(events).replace(/"lead_id":"(\d{1,20})"/g, '"lead_id":$1');
}

export interface CapiSendOptions {
  /** Events Manager's Test Events code: the events show there and are not used for ads. */
  testEventCode?: string;
  /** Epoch ms; default Date.now() (events older than CAPI_MAX_AGE_S are left out). */
  now?: number;
}

export interface CapiAnswer {
  /** Meta's count of the events it took. */
  eventsReceived: number;
  messages: string[];
  fbtraceId?: string;
  /** The event_id of each event sent. */
  sent: string[];
  /** The event_id of each event left out because Meta takes none older than 7 days (FACEBOOK_CAPI_TOO_OLD). */
  tooOld: string[];
  /** What was sent and what Meta answered, for the lead's log (no token). */
  trace: AttemptTrace;
}

export interface CapiDataset extends GraphDataset {
  /** The ad accounts of the connection that can use it. */
  adAccounts: { id: string; name: string }[];
}

/** Minutes Meta asks to wait (x-business-use-case-usage) or Retry-After seconds, in ms. */
function backoffMs(usage: Record<string, string> | undefined): number | undefined {
  if (!usage) return undefined;
  let minutes = 0;
  try {
    const buc = JSON.parse(usage['x-business-use-case-usage'] ?? '{}') as Record<string, unknown>;
    for (const rows of Object.values(buc)) {
      for (const row of Array.isArray(rows) ? rows : []) {
        const m = Number((row as { estimated_time_to_regain_access?: unknown })?.estimated_time_to_regain_access);
        if (Number.isFinite(m) && m > minutes) minutes = m;
      }
    }
  } catch {
    // An unreadable header says nothing.
  }
  const seconds = Number(usage['retry-after']);
  const ms = Math.max(minutes * 60_000, Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 0);
  return ms > 0 ? ms : undefined;
}

const isMissingObject = (e: GraphError) => e.code === 100 && e.subcode === 33;

/**
 * A Graph failure as the kit's error: the token (connect again), a lost permission, the object gone
 * (`missing`: the dataset, or the ad account), throttling and Meta's own failures (retry), and any
 * other refusal of the events (permanent, Meta's words as the message).
 */
export function capiFailure(error: unknown, missing: CapiReason, trace: AttemptTrace = {}): Error {
  if (error instanceof PermanentError || error instanceof RetryableError) return error;
  if (!(error instanceof GraphError)) {
    return new RetryableError(error instanceof Error ? error.message : String(error), { code: 'NETWORK', ...trace });
  }
  const response = {
    status: error.httpStatus,
    body: {
      error: {
        message: error.message,
        code: error.code,
        ...(error.subcode !== undefined ? { error_subcode: error.subcode } : {}),
        ...(error.fbtraceId ? { fbtrace_id: error.fbtraceId } : {}),
      },
    },
  };
  const details = { httpStatus: error.httpStatus, request: trace.request, response, cause: error };
  const detail = `${error.message}${error.code ? ` (code ${error.code}${error.subcode ? `/${error.subcode}` : ''})` : ''}`;
  if (error.isTokenError) return new PermanentError(detail, { ...details, code: 'FACEBOOK_TOKEN' });
  if (error.isPermissionError) return new PermanentError(detail, { ...details, code: 'FACEBOOK_CAPI_PERMISSION' });
  if (isMissingObject(error)) return new PermanentError(detail, { ...details, code: missing });
  if (error.isThrottled) {
    return new RetryableError(detail, { ...details, code: 'RATE_LIMITED', retryAfterMs: backoffMs(error.usage) });
  }
  if (error.isTransient) {
    const code = error.httpStatus === 0 ? (/timed out/.test(error.message) ? 'TIMEOUT' : 'NETWORK') : 'HTTP_5XX';
    return new RetryableError(detail, { ...details, code, retryAfterMs: backoffMs(error.usage) });
  }
  return new PermanentError(detail, { ...details, code: 'FACEBOOK_CAPI_REJECTED' });
}

const AD_ACCOUNT = /^(act_)?(\d{1,20})$/;
const DATASET = /^\d{1,20}$/;

export type CapiClient = ReturnType<typeof capiClient>;

/**
 * The Conversions API over the connection's user token (it holds ads_management, FB_SCOPES):
 * the datasets it can reach and the events it sends. Every failure is a RetryableError or a
 * PermanentError whose code is a CapiReason (or the kit's RATE_LIMITED, HTTP_5XX, NETWORK, TIMEOUT).
 */
export function capiClient(cfg: GraphConfig) {
  const graph = graphClient(cfg);

  async function listDatasets(token: string, adAccountId: string): Promise<GraphDataset[]> {
    const match = AD_ACCOUNT.exec(String(adAccountId).trim());
    if (!match) throw new PermanentError('Not an ad account id', { code: 'FACEBOOK_CAPI_PERMISSION' });
    try {
      return await graph.adsPixels(token, `act_${match[2]}`);
    } catch (error) {
      // An ad account the token cannot load is one the connection may no longer use.
      throw capiFailure(error, 'FACEBOOK_CAPI_PERMISSION');
    }
  }

  return {
    listDatasets,

    /** Every dataset of every ad account the connection reaches, once each (a dataset can be shared). */
    async connectionDatasets(token: string): Promise<CapiDataset[]> {
      let accounts: { id: string; name: string }[];
      try {
        accounts = await graph.adAccounts(token);
      } catch (error) {
        throw capiFailure(error, 'FACEBOOK_CAPI_PERMISSION');
      }
      const byId = new Map<string, CapiDataset>();
      for (const account of accounts) {
        for (const dataset of await listDatasets(token, account.id)) {
          const known = byId.get(dataset.id);
          if (known) known.adAccounts.push(account);
          else byId.set(dataset.id, { ...dataset, adAccounts: [account] });
        }
      }
      return [...byId.values()];
    },

    /** Sends up to CAPI_MAX_EVENTS events to a dataset in one request (Meta takes or refuses them all). */
    async sendCrmEvents(
      token: string,
      datasetId: string,
      events: readonly CrmEvent[],
      opts: CapiSendOptions = {},
    ): Promise<CapiAnswer> {
      if (events.length > CAPI_MAX_EVENTS) {
        throw new RangeError(`At most ${CAPI_MAX_EVENTS} events per request, got ${events.length}`);
      }
      const id = String(datasetId).trim();
      if (!DATASET.test(id)) throw new PermanentError('Not a dataset id', { code: 'FACEBOOK_DATASET_NOT_FOUND' });
      const oldest = Math.floor((opts.now ?? Date.now()) / 1000) - CAPI_MAX_AGE_S;
      const fresh = events.filter((e) => e.event_time > oldest);
      const tooOld = events.filter((e) => e.event_time <= oldest).map((e) => e.event_id);
      const request = {
        method: 'POST',
        url: `${cfg.graphUrl.replace(/\/+$/, '')}/${id}/events`,
        body: { data: fresh, ...(opts.testEventCode ? { test_event_code: opts.testEventCode } : {}) },
      };
      if (!fresh.length) {
        return { eventsReceived: 0, messages: [], sent: [], tooOld, trace: { request } };
      }
      try {
        const answer = await graph.postEvents(id, token, capiData(fresh), opts.testEventCode);
        const body = {
          events_received: answer.eventsReceived,
          messages: answer.messages,
          ...(answer.fbtraceId ? { fbtrace_id: answer.fbtraceId } : {}),
        };
        return {
          ...answer,
          sent: fresh.map((e) => e.event_id),
          tooOld,
          trace: { request, response: { status: 200, body } },
        };
      } catch (error) {
        throw capiFailure(error, 'FACEBOOK_DATASET_NOT_FOUND', { request });
      }
    },
  };
}

/** The client over the connector's configuration (FACEBOOK_* keys, as the connection's Graph calls read them). */
export function capiOf(call: ConnectionCall): CapiClient {
  const text = (key: string) => {
    const v = call.config[key];
    return typeof v === 'string' && v ? v : undefined;
  };
  return capiClient({
    graphUrl: text('FACEBOOK_GRAPH_URL') ?? DEFAULT_GRAPH_URL,
    dialogUrl: text('FACEBOOK_DIALOG_URL') ?? DEFAULT_DIALOG_URL,
    appId: text('FACEBOOK_APP_ID') ?? '',
    appSecret: text('FACEBOOK_APP_SECRET') ?? '',
    fetch: call.fetch,
    timeoutMs: call.timeoutMs,
  });
}
