// Bitrix24's stage changes of a deal or lead we delivered, as a manager's first reaction (issue 19,
// speed to lead; docs/connectors/bitrix24.md "Stage changes").
//
// Subscribing by API (event.bind) needs an application; an inbound webhook cannot. So the person
// makes an OUTGOING webhook by hand in the portal (Developer resources → Other → Outgoing webhook)
// with our address and the events ONCRMDEALUPDATE and ONCRMLEADUPDATE, and pastes back the token
// Bitrix24 shows for it. Bitrix24 then POSTs application/x-www-form-urlencoded PHP-style arrays:
//   event=ONCRMDEALUPDATE&data[FIELDS][ID]=759&ts=1736405807&auth[domain]=…&auth[member_id]=…
//   &auth[application_token]=…
// (b24restdocs local-integrations/local-webhooks.md, api-reference/crm/deals/events/on-crm-deal-update.md).
// The event names the record only: its stage is read with the inbound webhook we hold
// (crm.deal.get / crm.lead.get). A record whose MOVED_TIME ("date of the last stage change") is later
// than its DATE_CREATE moved since we made it: MOVED_BY_ID is who moved it.

import type { CrmStageChange, TokenPastedStageWatch } from '../kit/types';
import { type Bitrix24Auth, bitrix24Client } from './client';
import { ORIGINATOR } from './mapping';
import { type Bitrix24Settings, ZBitrix24OutgoingToken } from './schema';

/** The events the person picks for the outgoing webhook, by the kind of record each names. */
export const BITRIX24_WATCH_EVENTS = { ONCRMDEALUPDATE: 'deal', ONCRMLEADUPDATE: 'lead' } as const;
type WatchedKind = (typeof BITRIX24_WATCH_EVENTS)[keyof typeof BITRIX24_WATCH_EVENTS];

const EVENT_NAME = /^[A-Z0-9_]{1,80}$/i;
const DIGITS = /^\d{1,18}$/;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * A field of the body by its path: a form's flat bracket key (`data[FIELDS][ID]`, as a form parser
 * gives it) or nested objects (JSON, as the events' pages print them). Own keys only.
 */
function field(body: Obj, path: readonly string[]): unknown {
  const flat =
    path[0] +
    path
      .slice(1)
      .map((p) => `[${p}]`)
      .join('');
  if (Object.hasOwn(body, flat)) return body[flat];
  let at: unknown = body;
  for (const key of path) {
    if (!isObj(at) || !Object.hasOwn(at, key)) return undefined;
    at = at[key];
  }
  return at;
}

const text = (v: unknown): string | undefined =>
  typeof v === 'string' ? v.trim() : typeof v === 'number' && Number.isFinite(v) ? String(v) : undefined;

/** One outgoing webhook's call, checked: null when the body is not Bitrix24's event shape. */
export interface Bitrix24Event {
  event: string;
  /** The record's id, for the events that name one (data[FIELDS][ID]). */
  id?: string;
  /** When Bitrix24 sent it (ts, Unix seconds). */
  sentAt?: Date;
  token?: string;
}

export function parseBitrix24Event(body: unknown): Bitrix24Event | null {
  if (!isObj(body)) return null;
  const event = text(field(body, ['event']));
  if (!event || !EVENT_NAME.test(event)) return null;
  const idRaw = field(body, ['data', 'FIELDS', 'ID']);
  const id = text(idRaw);
  if (idRaw !== undefined && (!id || !DIGITS.test(id))) return null;
  const ts = text(field(body, ['ts']));
  const token = text(field(body, ['auth', 'application_token']));
  return {
    event: event.toUpperCase(),
    ...(id ? { id } : {}),
    ...(ts && /^\d{9,11}$/.test(ts) ? { sentAt: new Date(Number(ts) * 1000) } : {}),
    ...(token ? { token } : {}),
  };
}

/** The form Bitrix24 posts for an event (the emulator sends it; tests build bodies with it). */
export function bitrix24EventForm(e: {
  event: string;
  id: string;
  token: string;
  domain: string;
  memberId?: string;
  handlerId?: string;
  ts?: number;
}): string {
  const form = new URLSearchParams();
  form.set('event', e.event);
  if (e.handlerId) form.set('event_handler_id', e.handlerId);
  form.set('data[FIELDS][ID]', e.id);
  form.set('ts', String(e.ts ?? Math.floor(Date.now() / 1000)));
  form.set('auth[domain]', e.domain);
  form.set('auth[client_endpoint]', `https://${e.domain}/rest/`);
  form.set('auth[server_endpoint]', 'https://oauth.bitrix.info/rest/');
  form.set('auth[member_id]', e.memberId ?? '0'.repeat(32));
  form.set('auth[application_token]', e.token);
  return form.toString();
}

/** A Bitrix24 datetime ("2024-08-30T14:29:00+02:00"), or undefined. */
function timeOf(v: unknown): Date | undefined {
  const s = text(v);
  if (!s || s.length > 40) return undefined;
  const at = new Date(s);
  return Number.isNaN(at.getTime()) ? undefined : at;
}

/**
 * The change a record we made shows: moved to another stage after it was made (MOVED_TIME later than
 * DATE_CREATE), at MOVED_TIME, by MOVED_BY_ID. A record not ours (ORIGINATOR_ID) or never moved: undefined.
 */
export function movedSinceMade(externalId: string, record: unknown): CrmStageChange | undefined {
  if (!isObj(record) || text(record.ORIGINATOR_ID) !== ORIGINATOR) return undefined;
  const made = timeOf(record.DATE_CREATE);
  const moved = timeOf(record.MOVED_TIME);
  if (!made || !moved || moved.getTime() <= made.getTime()) return undefined;
  const by = text(record.MOVED_BY_ID);
  // Where it moved (issue 33): a deal's STAGE_ID in its CATEGORY_ID, a lead's STATUS_ID.
  const stageId = text(record.STAGE_ID) ?? text(record.STATUS_ID);
  const category = text(record.CATEGORY_ID) ?? (record.STAGE_ID !== undefined ? '0' : undefined);
  return {
    externalId,
    at: moved,
    ...(by && DIGITS.test(by) && by !== '0' ? { byId: by } : {}),
    ...(stageId ? { stage: { id: stageId, ...(category ? { pipelineId: category } : {}) } } : {}),
  };
}

const GET_METHOD: ReadonlyMap<WatchedKind, string> = new Map([
  ['deal', 'crm.deal.get'],
  ['lead', 'crm.lead.get'],
]);
const KIND_OF: ReadonlyMap<string, WatchedKind> = new Map(Object.entries(BITRIX24_WATCH_EVENTS));

export const bitrix24StageWatch: TokenPastedStageWatch<Bitrix24Auth, Bitrix24Settings> = {
  setup: 'pasted',
  summary:
    "Bitrix24's outgoing webhook (form-encoded ONCRMDEALUPDATE / ONCRMLEADUPDATE with auth[application_token]): a deal or lead we made, moved to another stage, is its first reaction",
  token: ZBitrix24OutgoingToken,
  tokenRefused: 'BITRIX24_EVENT_TOKEN_REFUSED',
  tokenOf: (body) => parseBitrix24Event(body)?.token,
  read(body) {
    const e = parseBitrix24Event(body);
    if (!e) return null;
    const kind = KIND_OF.get(e.event);
    // Other events (a contact's, a deletion) are well formed and name no stage change.
    if (!kind || !e.id) return [];
    return [{ externalId: e.id, kind, ...(e.sentAt ? { at: e.sentAt } : {}) }];
  },
  async confirm(ctx, change) {
    const method = change.kind === undefined ? undefined : GET_METHOD.get(change.kind as WatchedKind);
    if (!method) return undefined;
    const record = await bitrix24Client(ctx).result<unknown>(method, { id: change.externalId });
    return movedSinceMade(change.externalId, record);
  },
};
