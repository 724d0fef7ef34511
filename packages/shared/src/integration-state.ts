// One computed status per integration (issue 17): what the list, the detail page, the
// destinations card, the dashboard and UPDATE_INTEGRATION show. The server computes it here from
// the stored row; the web only translates `state.code` and `state.reason` (a code with parameters).
export const INTEGRATION_STATE_CODES = [
  'not_configured',
  'not_connected',
  'no_destinations',
  'working',
  'retrying',
  'paused',
  'broken_auth',
  'broken_other',
] as const;
export type IntegrationStateCode = (typeof INTEGRATION_STATE_CODES)[number];

/** A reason as a code the web translates (`integrations:reasons.<code>`) and its parameters. */
export interface Reason {
  code: string;
  params?: Record<string, string | number>;
}

/** The schemas (ZReason, ZIntegrationState) are in ./integrations: pages that only show a state go without zod. */
export interface IntegrationState {
  code: IntegrationStateCode;
  reason?: Reason;
}

/**
 * Every generic reason code the server stores or sends for an integration, a check or a delivery
 * (parseReason's codes, the connector kit's): the web (`integrations:reasons.<code>`) and the mail
 * catalogue (`reason.<code>`) translate each in both languages, and tests hold them to it. A
 * connector's own reasons are its folder's (packages/connectors/src/<slug>/codes.ts, words
 * `connectors:<slug>.reasons|mail.<code>`). A code known to neither reads as UNKNOWN: "something went
 * wrong", never the raw text.
 */
export const REASON_CODES = [
  'URL_NOT_ALLOWED',
  'TOO_MANY_REDIRECTS',
  'TIMEOUT',
  'ABORTED',
  'NETWORK',
  'AUTH',
  'RATE_LIMITED',
  'HTTP_5XX',
  'HTTP_4XX',
  'HTTP_UNEXPECTED',
  'CONFIGURATION',
  'INTEGRATION_SETTINGS_INVALID',
  'INTEGRATION_AUTH_UNREADABLE',
  'LEAD_NO_CONTACT',
  'NO_ACTIVE_DESTINATION',
  'DESTINATION_BROKEN',
  'DESTINATION_RETRYING',
  'PAUSED',
  'FILTERED',
  'DUPLICATE_OF',
  'UNKNOWN',
] as const;
export type ReasonCode = (typeof REASON_CODES)[number];

/** Whether a code is one of the generic REASON_CODES (a translated sentence exists for it). */
export const isReasonCode = (code: string): code is ReasonCode => (REASON_CODES as readonly string[]).includes(code);

/**
 * Generic reason codes that mean the service refused our credentials: the user has to reconnect. A
 * connector's own such codes come with the state's input (`reconnect`, its codes.ts).
 */
const AUTH_CODES = new Set(['AUTH', 'INTEGRATION_AUTH_UNREADABLE']);

/** Codes of the connector kit (kit/safe-fetch, kit/client-kit) whose detail text is ours, in English. */
const KIT_CODES = new Set(['URL_NOT_ALLOWED', 'TOO_MANY_REDIRECTS', 'NETWORK', 'TIMEOUT', 'ABORTED']);
const CODE_ONLY = /^([A-Z][A-Z0-9_]*)(?::\s*([\s\S]*))?$/;
const PAUSED = /^Paused after (\d+)\+ failures in a row: ([\s\S]*?)(?: — leads wait; next try at (.+?) UTC)?$/;
const LEGACY_SUFFIXES = [' — reconnect the integration'];
// A hook's reasons: `FILTERED: <field> [not ]<op>[ "<value>"]` (shared evaluateFilters) and
// `DUPLICATE_OF: <hook id>` (ingest); before 27 November 2026 stored as "Filter failed: …" and "Repeat of …".
const FILTERED = /^(?:FILTERED: |Filter failed: )(\S+) (not )?(equals|contains|regex|empty|notEmpty)(?: "([\s\S]*)")?$/;
const DUPLICATE = /^(?:DUPLICATE_OF: |Repeat of )(\S+)$/;

function httpReason(status: number, detail: string): Reason {
  const code =
    status === 401 || status === 403
      ? 'AUTH'
      : status === 429
        ? 'RATE_LIMITED'
        : status >= 500
          ? 'HTTP_5XX'
          : status >= 400
            ? 'HTTP_4XX'
            : 'HTTP_UNEXPECTED';
  // The destination's own words stay as its answer, apart from our sentence.
  return { code, params: detail ? { status, answer: detail.slice(0, 200) } : { status } };
}

/** The parameters of a connector kit code, from the detail its message carries (kit/safe-fetch). */
function codedReason(code: string, detail: string): Reason {
  if (code === 'HTTP') {
    const m = /^(\d{3})(?::\s*([\s\S]*))?$/.exec(detail);
    if (m) return httpReason(Number(m[1]), m[2] ?? '');
  }
  if (code === 'TIMEOUT') {
    const m = /^no answer from (\S+) within (\d+) ms$/.exec(detail);
    if (m) return { code, params: { host: m[1]!, seconds: Math.round(Number(m[2]) / 1000) } };
  }
  if (code === 'NETWORK') {
    const m = /^(?:cannot resolve )?([a-z0-9.-]+(?::\d+)?)(?::|$)/i.exec(detail);
    if (m && m[1]!.includes('.')) return { code, params: { host: m[1]! } };
  }
  if (code === 'HTTP_4XX' || code === 'HTTP_5XX' || code === 'AUTH' || code === 'RATE_LIMITED') {
    const m = /^HTTP (\d{3})(?::\s*([\s\S]*))?$/.exec(detail);
    if (m) return httpReason(Number(m[1]), m[2] ?? '');
  }
  // The connector kit's own details are our English sentences: the code (and its parameters) say it.
  if (KIT_CODES.has(code) || !detail) return { code };
  // Other details are data (a phone number) or the destination's own words: kept beside the code.
  return { code, params: { detail: detail.slice(0, 300) } };
}

/**
 * A connector's reason stored in its service's own words (no code before it), known by the text's
 * form: the whole text is the detail of `code` (the connector's stored-reasons.ts, kit/codes.ts).
 */
export interface StoredReasonForm {
  pattern: RegExp;
  code: string;
}

/**
 * The stored reason text of a status, a check or a delivery as a code with parameters. Texts stored
 * before codes ("Paused after 5+ failures…", "HTTP 404: Not Found", "No active destination") are
 * read too, so old rows show in the user's language as well; `forms` are the connectors' (a
 * service's own words stored as they came).
 */
export function parseReason(text: string, forms: readonly StoredReasonForm[] = []): Reason {
  let rest = text.trim();
  for (const suffix of LEGACY_SUFFIXES) if (rest.endsWith(suffix)) rest = rest.slice(0, -suffix.length);
  const paused = PAUSED.exec(rest);
  if (paused) {
    const inner = parseReason(paused[2]!, forms);
    const retryAt = paused[3] ? new Date(`${paused[3].replace(' ', 'T')}Z`) : null;
    return {
      code: inner.code,
      params: {
        ...inner.params,
        failures: Number(paused[1]),
        ...(retryAt && !Number.isNaN(retryAt.getTime()) ? { retryAt: retryAt.toISOString() } : {}),
      },
    };
  }
  if (rest === 'No active destination') return { code: 'NO_ACTIVE_DESTINATION' };
  // A hook's stored reasons (shared evaluateFilters, ingest's duplicates): the user's own field and value.
  const filtered = FILTERED.exec(rest);
  if (filtered) {
    const [, field, negate, op, value] = filtered;
    return {
      code: 'FILTERED',
      params: { field: field!, op: op!, negate: negate ? 1 : 0, ...(value ? { value } : {}) },
    };
  }
  const repeat = DUPLICATE.exec(rest);
  if (repeat) return { code: 'DUPLICATE_OF', params: { id: repeat[1]! } };
  const http = /^HTTP (\d{3})(?::\s*([\s\S]*))?$/.exec(rest);
  if (http) return httpReason(Number(http[1]), http[2] ?? '');
  const form = forms.find((f) => f.pattern.test(rest));
  if (form) return { code: form.code, params: { detail: rest } };
  const coded = CODE_ONLY.exec(rest);
  if (coded) return codedReason(coded[1]!, (coded[2] ?? '').trim());
  return { code: 'UNKNOWN', params: { detail: rest.slice(0, 300) } };
}

export interface StateInput {
  kind: 'source' | 'destination' | null;
  active: boolean;
  /** The type keeps credentials (OAuth, an API key, an account's connection); http does not need them. */
  needsConnection: boolean;
  isConnected: boolean;
  /** The stored settings pass the connector's schema (an http destination has its URL). */
  isConfigured: boolean;
  status: 'ok' | 'broken';
  statusReason: string | null;
  /** For a source: its destinations, each with its own computed state. */
  destinations?: readonly { name: string; active: boolean; state: IntegrationState }[];
  /** When the delivery engine paused this destination until (its breaker). */
  pausedUntil?: Date | null;
  /** The connector's own reason codes that mean "connect again" (the service refused our credentials). */
  reconnect?: readonly string[];
  /** The connector's reasons stored in its service's own words (parseReason's `forms`). */
  stored?: readonly StoredReasonForm[];
}

const BROKEN_RANK: Partial<Record<IntegrationStateCode, number>> = {
  retrying: 1,
  not_configured: 2,
  not_connected: 2,
  broken_other: 3,
  broken_auth: 3,
};

function ownBroken(input: StateInput, now: Date): IntegrationState {
  const reason = input.statusReason ? parseReason(input.statusReason, input.stored) : { code: 'UNKNOWN' };
  // A paused destination keeps its leads and tries again by itself: retrying, not broken.
  const retryAt = typeof reason.params?.retryAt === 'string' ? new Date(reason.params.retryAt) : null;
  const paused = input.pausedUntil ?? retryAt;
  if (AUTH_CODES.has(reason.code) || input.reconnect?.includes(reason.code)) return { code: 'broken_auth', reason };
  if (reason.params?.failures !== undefined || (paused && paused > now)) return { code: 'retrying', reason };
  return { code: 'broken_other', reason };
}

/**
 * The one status of an integration, in this order: switched off, not connected, not configured,
 * its own connection broken (auth, other) or waiting to retry, a source with no active
 * destination, a source whose destination does not work, working.
 */
export function computeIntegrationState(input: StateInput, now: Date = new Date()): IntegrationState {
  if (!input.active) return { code: 'paused' };
  if (input.needsConnection && !input.isConnected) return { code: 'not_connected' };
  if (!input.isConfigured) return { code: 'not_configured' };
  if (input.status === 'broken') return ownBroken(input, now);
  if (input.kind === 'source') {
    const active = (input.destinations ?? []).filter((d) => d.active);
    if (active.length === 0) return { code: 'no_destinations' };
    let worst: { name: string; state: IntegrationState } | undefined;
    for (const d of active) {
      const rank = BROKEN_RANK[d.state.code] ?? 0;
      if (rank > (worst ? (BROKEN_RANK[worst.state.code] ?? 0) : 0)) worst = d;
    }
    if (worst) {
      const retrying = worst.state.code === 'retrying';
      return {
        code: retrying ? 'retrying' : 'broken_other',
        reason: {
          code: retrying ? 'DESTINATION_RETRYING' : 'DESTINATION_BROKEN',
          params: { name: worst.name, state: worst.state.code },
        },
      };
    }
  }
  if (input.pausedUntil && input.pausedUntil > now) {
    return { code: 'retrying', reason: { code: 'PAUSED', params: { retryAt: input.pausedUntil.toISOString() } } };
  }
  return { code: 'working' };
}

/** How the web colours a state: green, orange (the user has something to do or wait for), red, grey. */
export const INTEGRATION_STATE_TONE: Record<IntegrationStateCode, 'ok' | 'warn' | 'error' | 'off'> = {
  working: 'ok',
  retrying: 'warn',
  not_configured: 'warn',
  not_connected: 'warn',
  no_destinations: 'warn',
  paused: 'off',
  broken_auth: 'error',
  broken_other: 'error',
};
