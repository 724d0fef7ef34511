// Pipedrive's changes to a deal or lead we delivered, as a manager's first reaction (issue 19, speed
// to lead; docs/connectors/pipedrive.md "Stage changes"). We subscribe our URL with POST /v1/webhooks
// (version 2.0, event change.deal or change.lead after the integration's target); Pipedrive posts
// JSON { meta: {action, entity, entity_id, user_id, timestamp, change_source, …}, data, previous }.
//   deal: a reaction when `previous` names stage_id or status (the deal moved, or was won or lost).
//   lead: leads have no stages; a change a person made in Pipedrive (change_source other than "api")
//         to anything but bookkeeping fields counts: opened (was_seen), labelled, archived, edited.
//         Changes made through the API are left out: our own activity and note touch the lead.
import { ownValue } from '@leadrelay/shared';
import type { CrmStage, CrmStageChange, StageWatch } from '../kit/types';
import { type PipedriveAuth, pipedriveClient } from './client';
import type { PipedriveSettings } from './schema';

/** What our subscription is called in Pipedrive's webhook list (the user sees it there). */
export const STAGE_WATCH_NAME = 'LeadRelay: speed to lead';

/** Lead fields that change without anyone working the lead. */
const LEAD_BOOKKEEPING = new Set(['update_time', 'next_activity_id', 'next_activity', 'next_activity_date']);

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);
const idText = (v: unknown): string | undefined =>
  (typeof v === 'number' && Number.isFinite(v)) || (typeof v === 'string' && v.trim() && v.length <= 100)
    ? String(v).trim()
    : undefined;

/** meta.timestamp: RFC 3339, or Unix seconds (or ms) as some payloads carry it. */
function timeOf(v: unknown): Date | undefined {
  let at: Date | undefined;
  if (typeof v === 'number' && Number.isFinite(v)) at = new Date(v > 1e12 ? v : v * 1000);
  else if (typeof v === 'string' && /^\d{10,13}$/.test(v)) at = timeOf(Number(v));
  else if (typeof v === 'string' && v.length <= 40) at = new Date(v);
  return at && !Number.isNaN(at.getTime()) ? at : undefined;
}

/** A Pipedrive webhook v2 body, checked: null when it is not one. */
export interface PipedriveEvent {
  action: string;
  entity: string;
  entityId?: string;
  userId?: string;
  changeSource?: string;
  at?: Date;
  data: Obj | null;
  previous: Obj | null;
}

export function parsePipedriveWebhook(body: unknown): PipedriveEvent | null {
  if (!isObj(body) || !isObj(body.meta)) return null;
  const { meta } = body;
  if (typeof meta.action !== 'string' || typeof meta.entity !== 'string') return null;
  if (body.data !== undefined && body.data !== null && !isObj(body.data)) return null;
  if (body.previous !== undefined && body.previous !== null && !isObj(body.previous)) return null;
  return {
    action: meta.action,
    entity: meta.entity,
    entityId: idText(meta.entity_id),
    userId: idText(meta.user_id),
    changeSource: typeof meta.change_source === 'string' ? meta.change_source : undefined,
    at: timeOf(meta.timestamp),
    data: (body.data as Obj | null | undefined) ?? null,
    previous: (body.previous as Obj | null | undefined) ?? null,
  };
}

// Keys are the webhook body's: own ones only (a lead field `constructor` missing from `data` is not a change).
const changed = (e: PipedriveEvent, key: string) =>
  !!e.previous &&
  Object.hasOwn(e.previous, key) &&
  JSON.stringify(e.previous[key]) !== JSON.stringify(ownValue(e.data, key));

/** Whether the event is a manager's reaction to the record (see the rules at the top). */
export function isReaction(e: PipedriveEvent): boolean {
  if (e.action !== 'change' || !e.previous) return false;
  if (e.entity === 'deal') return changed(e, 'stage_id') || changed(e, 'status');
  if (e.entity === 'lead') {
    if (e.changeSource === 'api') return false;
    return Object.keys(e.previous).some((k) => !LEAD_BOOKKEEPING.has(k) && changed(e, k));
  }
  return false;
}

/** The deal statuses that end it, as stages of their own (issue 33: a won deal is the purchase). */
const CLOSED = new Map([
  ['won', 'Won'],
  ['lost', 'Lost'],
]);

/**
 * Where a deal moved (issue 33): won or lost when its status changed to one, else its stage (the
 * name is Pipedrive's stages list's: stageName). A lead has no stages: none.
 */
export function stageOf(e: PipedriveEvent): CrmStage | undefined {
  if (e.entity !== 'deal' || !e.data) return undefined;
  const pipelineId = idText(e.data.pipeline_id);
  const status = typeof e.data.status === 'string' ? e.data.status : undefined;
  const closed = status && changed(e, 'status') ? CLOSED.get(status) : undefined;
  if (status && closed) return { id: status, name: closed, ...(pipelineId ? { pipelineId } : {}) };
  const id = idText(e.data.stage_id);
  return id ? { id, ...(pipelineId ? { pipelineId } : {}) } : undefined;
}

export const pipedriveStageWatch: StageWatch<PipedriveAuth, PipedriveSettings> = {
  summary: "Pipedrive's v2 change webhook (JSON): a deal's stage or status change is the lead's first reaction",
  async subscribe(ctx, url) {
    const made = await pipedriveClient(ctx).data<{ id: number | string; subscription_url?: string }>(
      'POST',
      '/v1/webhooks',
      {
        body: {
          subscription_url: url,
          event_action: 'change',
          // Settings may be unparsed here (a destination just connected): lead is the target by default.
          event_object: ctx.settings.target === 'deal' ? 'deal' : 'lead',
          name: STAGE_WATCH_NAME,
          version: '2.0',
        },
      },
    );
    return { id: String(made.id), url: made.subscription_url ?? url };
  },
  async unsubscribe(ctx, subscription) {
    try {
      await pipedriveClient(ctx).data('DELETE', `/v1/webhooks/${encodeURIComponent(subscription.id)}`);
    } catch (error) {
      if ((error as { httpStatus?: number }).httpStatus === 404) return;
      throw error;
    }
  },
  read(body) {
    const event = parsePipedriveWebhook(body);
    if (!event) return null;
    if (!isReaction(event)) return [];
    const externalId = idText(event.data?.id) ?? event.entityId;
    if (!externalId) return [];
    const change: CrmStageChange = { externalId };
    const stage = stageOf(event);
    if (stage) change.stage = stage;
    if (event.at) change.at = event.at;
    if (event.userId) change.byId = event.userId;
    return [change];
  },
};
