// The Graph emulator's Conversions API (issue 33): the datasets (pixels) of an ad account and
// POST /{dataset}/events, strict about the shape Meta's Conversion Leads payload specification
// documents (action_source system_generated, user_data.lead_id of a known lead, event_time in
// seconds, custom_data.event_source crm and lead_event_source, at most 1,000 events, the whole
// batch refused when one event is wrong). Every accepted event is stored; one whose event_id and
// event_name the dataset already took within 48 hours is kept as a duplicate, as Meta dedupes.
// Control: GET /__emulator/capi/events, POST /__emulator/capi/revoke, POST /__emulator/capi/remove-dataset.
import { ownValue } from '@leadrelay/shared';
import type { FastifyInstance } from 'fastify';
import { parseJson } from '../kit/emulator-kit';
import { type Call, fail, GraphFault, type GraphRuntime, paged, requireScope, unsupported } from './emulator-edges';
import type { EmulatedToken, ReceivedCapiEvent } from './emulator-state';

const MAX_EVENTS = 1000;
const MAX_AGE_S = 7 * 24 * 60 * 60;
/** Meta takes no event from the future; a little clock skew is allowed (assumed: one hour). */
const MAX_AHEAD_S = 60 * 60;
const DEDUPE_MS = 48 * 60 * 60 * 1000;
const DATASET_FIELDS = ['id', 'name', 'creation_time', 'last_fired_time', 'is_unavailable'] as const;

function unsupportedPost(id: string): never {
  throw new GraphFault(
    100,
    `Unsupported post request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
    33,
  );
}

/** GET /act_{id}/adspixels with a user token holding ads_management. */
export function adsPixels(call: Call, token: EmulatedToken, adAccountId: string): unknown {
  const { rt } = call;
  if (token.kind !== 'user') unsupported(adAccountId);
  requireScope(rt, 'ads_management');
  if (!rt.state.adAccounts.some((a) => a.id === adAccountId)) unsupported(adAccountId);
  const rows = rt.state.datasets
    .filter((d) => d.adAccountIds.includes(adAccountId))
    .map((d) => ({ id: d.id, name: d.name, creation_time: '2024-05-01T09:00:00+0000', is_unavailable: false }));
  return paged(call, rows, DATASET_FIELDS, 'id', 'AdsPixel');
}

const invalid = (index: number, what: string): never =>
  fail(100, `(#100) Invalid parameter: data[${index}] ${what}`, 2804019);

/** POST /{dataset}/events: checks the token and the dataset, then every event, then stores them all. */
export function postCapiEvents(call: Call, token: EmulatedToken, datasetId: string): unknown {
  const { rt, params } = call;
  const dataset = rt.state.datasets.find((d) => d.id === datasetId);
  const reachable = dataset?.adAccountIds.some((id) => rt.state.adAccounts.some((a) => a.id === id));
  if (!dataset || token.kind !== 'user') unsupportedPost(datasetId);
  requireScope(rt, 'ads_management');
  if (!reachable) unsupportedPost(datasetId);

  const text = params.data;
  if (!text) fail(100, '(#100) The parameter data is required');
  let parsed: unknown;
  try {
    // lead_id as a JSON integer keeps all its digits (a 16-digit id can pass 2^53): read it as text.
    parsed = JSON.parse((text as string).replace(/"lead_id"\s*:\s*(\d{1,20})(?=\s*[,}])/g, '"lead_id":"#$1"'));
  } catch {
    fail(100, '(#100) param data must be an array.');
  }
  if (!Array.isArray(parsed)) fail(100, '(#100) param data must be an array.');
  const list = parsed as unknown[];
  if (!list.length) fail(100, '(#100) param data must be a non-empty array.');
  if (list.length > MAX_EVENTS) fail(100, `(#100) param data must contain at most ${MAX_EVENTS} events.`);

  const now = Date.now();
  const nowS = Math.floor(now / 1000);
  const events = list.map((item, i): ReceivedCapiEvent => {
    if (!item || typeof item !== 'object' || Array.isArray(item)) return invalid(i, 'must be an object');
    const e = item as Record<string, unknown>;
    const name = ownValue(e, 'event_name');
    if (typeof name !== 'string' || !name.trim()) invalid(i, 'event_name is required');
    const time = ownValue(e, 'event_time');
    if (typeof time !== 'number' || !Number.isInteger(time))
      invalid(i, 'event_time must be a Unix timestamp in seconds');
    if ((time as number) > nowS + MAX_AHEAD_S) invalid(i, 'event_time is in the future (seconds, not milliseconds)');
    if ((time as number) < nowS - MAX_AGE_S) invalid(i, 'event_time is more than 7 days in the past');
    const source = ownValue(e, 'action_source');
    if (source !== 'system_generated') invalid(i, 'action_source must be system_generated for Conversion Leads');
    const id = ownValue(e, 'event_id');
    if (id !== undefined && (typeof id !== 'string' || !id)) invalid(i, 'event_id must be a string');
    const user = ownValue(e, 'user_data');
    const rawLead = user && typeof user === 'object' ? ownValue(user, 'lead_id') : undefined;
    const asNumber = typeof rawLead === 'string' && rawLead.startsWith('#');
    const leadId = typeof rawLead === 'string' ? rawLead.replace(/^#/, '') : '';
    if (!/^\d{1,20}$/.test(leadId)) invalid(i, 'user_data.lead_id is required (the leadgen id, not hashed)');
    if (!rt.state.leads.has(leadId)) invalid(i, `user_data.lead_id ${leadId} is not a valid lead id`);
    const custom = ownValue(e, 'custom_data');
    const eventSource = custom && typeof custom === 'object' ? ownValue(custom, 'event_source') : undefined;
    const leadSource = custom && typeof custom === 'object' ? ownValue(custom, 'lead_event_source') : undefined;
    if (eventSource !== 'crm') invalid(i, 'custom_data.event_source must be crm');
    if (typeof leadSource !== 'string' || !leadSource.trim()) invalid(i, 'custom_data.lead_event_source is required');
    const raw = { ...e, user_data: { ...(user as object), lead_id: leadId } };
    return {
      datasetId,
      eventName: name as string,
      eventTime: time as number,
      actionSource: source as string,
      ...(typeof id === 'string' ? { eventId: id } : {}),
      leadId,
      leadIdType: asNumber ? 'number' : 'string',
      eventSource: eventSource as string,
      leadEventSource: leadSource as string,
      ...(params.test_event_code ? { testEventCode: params.test_event_code } : {}),
      isDuplicate: false,
      receivedAt: now,
      raw,
    };
  });

  // Only once all are valid: Meta takes or refuses a batch whole.
  const received = rt.state.capiEvents;
  for (const event of events) {
    event.isDuplicate =
      event.eventId !== undefined &&
      received.some(
        (r) =>
          r.datasetId === datasetId &&
          !r.isDuplicate &&
          r.eventId === event.eventId &&
          r.eventName === event.eventName &&
          now - r.receivedAt < DEDUPE_MS,
      );
    received.push(event);
  }
  return { events_received: events.length, messages: [], fbtrace_id: `A${Math.random().toString(36).slice(2, 12)}` };
}

/** The control endpoints part of the end-to-end suite drives. */
export function registerCapiControl(app: FastifyInstance, rt: () => GraphRuntime, revoke: (scopes: string[]) => void) {
  app.get('/__emulator/capi/events', async (req) => {
    const dataset = (req.query as Record<string, unknown> | undefined)?.dataset;
    const events = rt().state.capiEvents.filter((e) => typeof dataset !== 'string' || e.datasetId === dataset);
    return { events };
  });
  app.post('/__emulator/capi/revoke', async () => {
    revoke(['ads_management']);
    return { ok: true };
  });
  app.post('/__emulator/capi/remove-dataset', async (req, reply) => {
    const id = (parseJson(req.body) as { datasetId?: unknown } | undefined)?.datasetId;
    const state = rt().state;
    const before = state.datasets.length;
    state.datasets = state.datasets.filter((d) => d.id !== id);
    if (state.datasets.length === before) return reply.code(404).send({ error: 'unknown dataset' });
    return { ok: true };
  });
}
