// amoCRM's lead status changes as a manager's first reaction (issue 19, speed to lead;
// docs/connectors/amocrm.md "Status changes"). We subscribe our URL to the `status_lead` event with
// POST /api/v4/webhooks; amoCRM then posts application/x-www-form-urlencoded PHP-style arrays:
// leads[status][0][id]=…&leads[status][0][status_id]=…&leads[status][0][old_status_id]=…
// &leads[status][0][modified_user_id]=…&leads[status][0][last_modified]=<unix s>&account[subdomain]=…
// The form is read flat (a body parser gives the bracket names as keys); only the keys we use are read.

import type { CrmStageChange, StageWatch } from '../kit/types';
import { type AmoAuth, AmoClient } from './client';
import type { AmoSettings } from './schema';

/** The event we subscribe to: "the lead's status changed". */
export const AMO_STATUS_EVENT = 'status_lead';

const STATUS_KEY = /^leads\[status\]\[(\d{1,4})\]\[([a-z_]{1,40})\]$/;
const DIGITS = /^\d{1,20}$/;
/** Any key amoCRM sends: an entity, then brackets (action, index, field; custom fields nest deeper). */
const AMO_KEY = /^[a-z_]{1,40}(\[[A-Za-z0-9_]{0,40}\]){1,8}$/;

/** One status change as amoCRM posts it (ids as the decimal strings it sends). */
export interface AmoStatusChange {
  id: string;
  statusId: string;
  oldStatusId?: string;
  pipelineId?: string;
  modifiedUserId?: string;
  /** Unix seconds. */
  lastModified?: number;
}

const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/**
 * The status changes in an amoCRM webhook's form fields (flat bracket keys), in index order; null
 * when the body is not an amoCRM webhook form (not an object, a key amoCRM would not send, a status
 * entry without a numeric lead id or status). A form with other events only gives [].
 */
export function parseAmoStatusWebhook(body: unknown): AmoStatusChange[] | null {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return null;
  const entries = Object.entries(body as Record<string, unknown>);
  if (!entries.length) return null;
  const byIndex = new Map<number, Record<string, string>>();
  for (const [key, value] of entries) {
    if (!AMO_KEY.test(key)) return null;
    const m = STATUS_KEY.exec(key);
    if (!m) continue;
    const v = text(value);
    if (v === undefined) return null;
    const index = Number(m[1]);
    byIndex.set(index, { ...byIndex.get(index), [m[2]!]: v });
  }
  const out: AmoStatusChange[] = [];
  for (const index of [...byIndex.keys()].sort((a, b) => a - b)) {
    const f = byIndex.get(index)!;
    if (!f.id || !DIGITS.test(f.id) || !f.status_id || !DIGITS.test(f.status_id)) return null;
    const optional = (k: string) => (f[k] && DIGITS.test(f[k]) ? f[k] : undefined);
    const lastModified = optional('last_modified');
    out.push({
      id: f.id,
      statusId: f.status_id,
      oldStatusId: optional('old_status_id'),
      pipelineId: optional('pipeline_id'),
      modifiedUserId: optional('modified_user_id'),
      lastModified: lastModified ? Number(lastModified) : undefined,
    });
  }
  return out;
}

/** The form amoCRM posts for status changes (the emulator sends it; tests build bodies with it). */
export function amoStatusWebhookForm(changes: AmoStatusChange[], account: { subdomain: string; id?: number }): string {
  const form = new URLSearchParams();
  changes.forEach((c, i) => {
    const p = `leads[status][${i}]`;
    form.set(`${p}[id]`, c.id);
    form.set(`${p}[status_id]`, c.statusId);
    if (c.pipelineId) form.set(`${p}[pipeline_id]`, c.pipelineId);
    if (c.oldStatusId) form.set(`${p}[old_status_id]`, c.oldStatusId);
    if (c.modifiedUserId) form.set(`${p}[modified_user_id]`, c.modifiedUserId);
    if (c.lastModified !== undefined) form.set(`${p}[last_modified]`, String(c.lastModified));
    if (account.id !== undefined) form.set(`${p}[account_id]`, String(account.id));
  });
  form.set('account[subdomain]', account.subdomain);
  if (account.id !== undefined) form.set('account[id]', String(account.id));
  return form.toString();
}

/** A change moved the lead to another status (a repeat of the same status is not a reaction). */
const moved = (c: AmoStatusChange) => c.oldStatusId === undefined || c.oldStatusId !== c.statusId;

// No user name in the webhook: only modified_user_id. A name lookup (GET /api/v4/users/{id}) would
// cost a call per event inside amoCRM's 2-second answer window; the id is kept, the name left out.
export const amoStageWatch: StageWatch<AmoAuth, AmoSettings> = {
  summary: "amoCRM's status_lead webhook (form-encoded): a lead's status change is its first reaction",
  async subscribe(ctx, url) {
    const res = await new AmoClient(ctx).post<{ id?: number; destination?: string }>('/api/v4/webhooks', {
      destination: url,
      settings: [AMO_STATUS_EVENT],
    });
    return { id: String(res.body?.id ?? ''), url: res.body?.destination ?? url };
  },
  async unsubscribe(ctx, subscription) {
    try {
      await new AmoClient(ctx).request('DELETE', '/api/v4/webhooks', { destination: subscription.url });
    } catch (error) {
      // Already gone (removed by hand in amoCRM): nothing to remove.
      if ((error as { httpStatus?: number }).httpStatus === 404) return;
      throw error;
    }
  },
  read(body) {
    const changes = parseAmoStatusWebhook(body);
    if (!changes) return null;
    return changes.filter(moved).map(
      (c): CrmStageChange => ({
        externalId: c.id,
        // The status it moved to (issue 33); amoCRM's webhook names no status, stageName reads it.
        stage: { id: c.statusId, ...(c.pipelineId ? { pipelineId: c.pipelineId } : {}) },
        ...(c.lastModified ? { at: new Date(c.lastModified * 1000) } : {}),
        ...(c.modifiedUserId && c.modifiedUserId !== '0' ? { byId: c.modifiedUserId } : {}),
      }),
    );
  },
};
