// A stateful fake of the GA4 Measurement Protocol (external-apis 4; docs/connectors/ga.md) for our
// tests, the demo and the end-to-end suite. POST /mp/collect answers 204 to anything and stores the
// events (those with an unknown measurement id or API secret as not accepted: Google drops them
// silently); POST /debug/mp/collect answers 200 with validationMessages by Google's rules and
// stores nothing. Faults (429 with Retry-After, 5xx, any status) and latency; control API under
// /__emulator: reset, fault, latency, events, streams (measurement id → API secret).
import Fastify from 'fastify';
import { createEmulatorKit, listenEmulator, parseJson, registerControlRoutes } from '../kit/emulator-kit';

export interface GaFault {
  status: number;
  retryAfter?: number;
  times?: number;
}

export interface EmulatedGaHit {
  measurementId: string;
  /** The measurement id and secret match a stream: Google would record the events. */
  accepted: boolean;
  clientId?: string;
  userId?: string;
  events: { name: string; params: Record<string, unknown> }[];
  receivedAt: string;
}

export interface EmulatedGaRequest {
  path: string;
  query: Record<string, string>;
  body: unknown;
  status: number;
  receivedAt: string;
}

export interface GaEmulatorOptions {
  port?: number;
  host?: string;
  /** Streams: measurement id → API secret. */
  streams?: Record<string, string>;
}

export interface GaEmulator {
  url: string;
  port: number;
  requests: EmulatedGaRequest[];
  hits: EmulatedGaHit[];
  /** Events of accepted hits, flattened. */
  events(): (EmulatedGaHit['events'][number] & { clientId?: string; userId?: string; measurementId: string })[];
  addStream(measurementId: string, apiSecret: string): void;
  setLatency(ms: number): void;
  setFault(fault: GaFault | null): void;
  reset(): void;
  close(): Promise<void>;
}

export const GA_EMULATOR_STREAM = { measurementId: 'G-LEADRELAY1', apiSecret: 'ga-emu-secret-8f2d61c4' } as const;

export interface EmulatedValidationMessage {
  fieldPath: string;
  description: string;
  validationCode: string;
}

const NAME = /^[A-Za-z][A-Za-z0-9_]*$/;
const RESERVED_EVENTS = new Set([
  'ad_impression',
  'app_remove',
  'app_store_refund',
  'app_store_subscription_cancel',
  'app_store_subscription_renew',
  'click',
  'error',
  'file_download',
  'first_open',
  'first_visit',
  'form_start',
  'form_submit',
  'in_app_purchase',
  'page_view',
  'scroll',
  'session_start',
  'user_engagement',
  'view_complete',
  'video_progress',
  'video_start',
  'view_search_results',
]);
const RESERVED_PARAMS = new Set(['engagement_time_msec', 'gclid', 'session_id', 'session_number']);
const RESERVED_PREFIX = /^(_|firebase_|ga_|google_|gtag\.)/;

/** The validation server's messages for a body, in the wording Google's documented example uses. */
export function validationMessages(query: Record<string, string>, body: unknown): EmulatedValidationMessage[] {
  const out: EmulatedValidationMessage[] = [];
  const msg = (fieldPath: string, validationCode: string, description: string) =>
    out.push({ fieldPath, validationCode, description });
  if (!query.measurement_id && !query.firebase_app_id) {
    msg('measurement_id', 'VALUE_REQUIRED', 'Measurement ID is required.');
  }
  if (!body || typeof body !== 'object') {
    msg('', 'VALUE_INVALID', 'Unable to parse Measurement Protocol JSON payload.');
    return out;
  }
  const b = body as { client_id?: unknown; user_id?: unknown; events?: unknown };
  if (typeof b.client_id !== 'string' || !b.client_id) msg('client_id', 'VALUE_REQUIRED', 'client_id is required.');
  if (typeof b.user_id === 'string' && b.user_id.length > 256) {
    msg('user_id', 'VALUE_OUT_OF_BOUNDS', 'user_id exceeds the maximum length of 256.');
  }
  const events = Array.isArray(b.events) ? b.events : [];
  if (!events.length) msg('events', 'VALUE_REQUIRED', 'At least one event is required.');
  if (events.length > 25) msg('events', 'EXCEEDED_MAX_ENTITIES', 'A request can have at most 25 events.');
  events.forEach((event: { name?: unknown; params?: unknown }, i) => {
    const name = typeof event?.name === 'string' ? event.name : '';
    if (!NAME.test(name) || name.length > 40) {
      msg(
        'events',
        'NAME_INVALID',
        `Event at index: [${i}] has invalid name [${name}]. Names must start with an alphabetic character.`,
      );
    } else if (RESERVED_EVENTS.has(name) || RESERVED_PREFIX.test(name)) {
      msg('events', 'NAME_RESERVED', `Event at index: [${i}] has name [${name}] which is reserved.`);
    }
    const params = event?.params && typeof event.params === 'object' ? Object.entries(event.params) : [];
    if (params.length > 25) {
      msg(`events[${i}].params`, 'EXCEEDED_MAX_ENTITIES', `Event at index: [${i}] has more than 25 params.`);
    }
    for (const [key, value] of params) {
      if (RESERVED_PARAMS.has(key) || RESERVED_PREFIX.test(key)) {
        msg(`events[${i}].params`, 'NAME_RESERVED', `Param [${key}] has a reserved name.`);
      } else if (!NAME.test(key) || key.length > 40) {
        msg(`events[${i}].params`, 'NAME_INVALID', `Param [${key}] has invalid name.`);
      }
      if (typeof value === 'string' && value.length > 100) {
        msg(`events[${i}].params.${key}`, 'VALUE_OUT_OF_BOUNDS', `Param [${key}] has a value longer than 100.`);
      }
    }
  });
  return out;
}

export async function startGaEmulator(options: GaEmulatorOptions = {}): Promise<GaEmulator> {
  const app = Fastify({ logger: false, forceCloseConnections: true });
  const kit = createEmulatorKit<GaFault, EmulatedGaRequest>({ maxLog: 10_000 });
  const initial = options.streams ?? { [GA_EMULATOR_STREAM.measurementId]: GA_EMULATOR_STREAM.apiSecret };
  const streams = new Map(Object.entries(initial));
  const hits: EmulatedGaHit[] = [];

  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));

  const emulator: GaEmulator = {
    url: '',
    port: 0,
    requests: kit.requests,
    hits,
    events: () =>
      hits
        .filter((h) => h.accepted)
        .flatMap((h) =>
          h.events.map((e) => ({ ...e, clientId: h.clientId, userId: h.userId, measurementId: h.measurementId })),
        ),
    addStream(measurementId, apiSecret) {
      streams.set(measurementId, apiSecret);
    },
    setLatency: kit.setLatency,
    setFault: kit.setFault,
    reset() {
      kit.resetSwitches();
      hits.length = 0;
      streams.clear();
      for (const [id, secret] of Object.entries(initial)) streams.set(id, secret);
    },
    async close() {
      kit.clearTimers();
      await app.close();
    },
  };

  registerControlRoutes(app, kit, { reset: () => emulator.reset(), body: (req) => parseJson(req.body) });
  app.get('/__emulator/events', async () => ({ hits, events: emulator.events() }));
  app.post('/__emulator/streams', async (req) => {
    const b = (parseJson(req.body) ?? {}) as { measurementId?: string; apiSecret?: string };
    if (b.measurementId && b.apiSecret) emulator.addStream(b.measurementId, b.apiSecret);
    return { ok: true, streams: [...streams.keys()] };
  });

  const handle = (debug: boolean) =>
    app.post(debug ? '/debug/mp/collect' : '/mp/collect', async (req, reply) => {
      const query = req.query as Record<string, string>;
      const body = parseJson(req.body);
      const entry = kit.log({
        path: req.url.split('?')[0] ?? req.url,
        query: { ...query, ...(query.api_secret ? { api_secret: '[redacted]' } : {}) },
        body,
        status: debug ? 200 : 204,
        receivedAt: new Date().toISOString(),
      });
      await kit.delay();
      const fault = kit.takeFault();
      if (fault) {
        entry.status = fault.status;
        if (fault.retryAfter !== undefined) reply.header('retry-after', String(fault.retryAfter));
        return reply.code(fault.status).send(fault.status >= 500 ? 'Server Error' : '');
      }
      if (debug) return { validationMessages: validationMessages(query, body) };
      const b = (body ?? {}) as { client_id?: unknown; user_id?: unknown; events?: unknown };
      const measurementId = query.measurement_id ?? '';
      hits.push({
        measurementId,
        accepted: !!measurementId && streams.get(measurementId) === query.api_secret,
        ...(typeof b.client_id === 'string' ? { clientId: b.client_id } : {}),
        ...(typeof b.user_id === 'string' ? { userId: b.user_id } : {}),
        events: Array.isArray(b.events) ? (b.events as EmulatedGaHit['events']) : [],
        receivedAt: entry.receivedAt,
      });
      return reply.code(204).send();
    });
  handle(false);
  handle(true);

  const { port, url } = await listenEmulator(app, options);
  emulator.port = port;
  emulator.url = url;
  return emulator;
}
