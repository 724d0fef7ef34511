// KeyCRM's status changes of a card we delivered, as a manager's first reaction (issue 19, speed to
// lead) and as the stage that goes back to the ad platform (issue 33); docs/connectors/keycrm.md
// "Stage changes".
//
// KeyCRM's API cannot subscribe us: its webhooks are outgoing only, made by hand as the action
// "Відправити Webhook" of an automation trigger ("a pipeline card moved to a status"), POST or GET to
// a URL, with "basic information about the order or pipeline card" (its help centre). The body's
// shape is not documented, and it carries nothing of ours: no token to paste back. So the secret in
// our address is the only key (checked by the server before anything is read), the body is trusted
// for nothing but the card ids it names (read liberally: `id` / `card_id` at the top or under
// `context`, `data` or `card`; numbers or digit strings; JSON or form fields), and each card we
// delivered is read back with GET /pipelines/cards/{id}?include=status: its status now, its pipeline
// and the status's name. A card counts as moved when it is no longer in the status our delivery put
// it in (the settings' status, else the pipeline's first), so our own move into that status, which a
// KeyCRM trigger may report too, never counts.

import type { CrmStageChange, PastedStageWatch } from '../kit/types';
import { getCard, type KeycrmContext, type RawCard } from './client';
import { type KeycrmAuth, type KeycrmPipeline, type KeycrmSettings, ZKeycrmSettings } from './schema';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);

/** Where a card's id may be: at the top, or in one of these objects (or lists of them). */
const ID_KEYS = ['id', 'card_id'] as const;
const HOLDERS = ['context', 'data', 'card'] as const;
/** Cards read from one body at most (the server reads 50 changes at most anyway). */
const MAX_CARDS = 50;
/** A KeyCRM id: a positive whole number as JSON or form text (up to 15 digits: exact as a number). */
const DIGITS = /^[1-9]\d{0,14}$/;

/** A card id as text, or undefined: a positive safe integer, or its digits. */
function idOf(v: unknown): string | undefined {
  if (typeof v === 'number') return Number.isSafeInteger(v) && v > 0 ? String(v) : undefined;
  if (typeof v !== 'string') return undefined;
  const s = v.trim();
  return DIGITS.test(s) ? s : undefined;
}

/** A field by its path: a form's flat bracket key (`context[id]`) or nested objects (JSON). Own keys only. */
function field(body: Obj, path: readonly string[]): unknown {
  const flat =
    path[0] +
    path
      .slice(1)
      .map((p) => `[${p}]`)
      .join('');
  if (path.length > 1 && Object.hasOwn(body, flat)) return body[flat];
  let at: unknown = body;
  for (const key of path) {
    if (!isObj(at) || !Object.hasOwn(at, key)) return undefined;
    at = at[key];
  }
  return at;
}

/**
 * The card ids a webhook body names, in the order found, each once; null when the body names none
 * (not an object, or no id where one is looked for).
 */
export function cardIdsOf(body: unknown): string[] | null {
  if (!isObj(body)) return null;
  const found = new Set<string>();
  const add = (v: unknown) => {
    const id = idOf(v);
    if (id && found.size < MAX_CARDS) found.add(id);
  };
  for (const key of ID_KEYS) add(field(body, [key]));
  for (const holder of HOLDERS) {
    for (const key of ID_KEYS) add(field(body, [holder, key]));
    const list = Object.hasOwn(body, holder) ? body[holder] : undefined;
    if (Array.isArray(list)) {
      for (const item of list.slice(0, MAX_CARDS)) {
        if (!isObj(item)) continue;
        for (const key of ID_KEYS) add(Object.hasOwn(item, key) ? item[key] : undefined);
      }
    }
  }
  return found.size ? [...found] : null;
}

/**
 * The body the KeyCRM emulator posts for a card moved to another status (ASSUMED: KeyCRM does not
 * publish it): the event's name and the card as its API answers it, under `context`.
 */
export function keycrmCardEvent(card: Obj): { event: string; context: Obj } {
  return { event: 'pipelines.card.status_changed', context: card };
}

/** A KeyCRM time ("2024-05-01 10:20:30", UTC), or undefined. */
function timeOf(v: unknown): Date | undefined {
  if (typeof v !== 'string' || v.length > 40) return undefined;
  const s = v.trim();
  const at = new Date(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2})?$/.test(s) ? `${s.replace(' ', 'T')}Z` : s);
  return Number.isNaN(at.getTime()) ? undefined : at;
}

const positive = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isSafeInteger(v) && v > 0
    ? v
    : typeof v === 'string' && DIGITS.test(v.trim())
      ? Number(v.trim())
      : undefined;
const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);

/** Where our delivery leaves a card: the settings' status, else the first status of its pipeline. */
export interface Placed {
  statusId: number;
  pipelineId?: number;
}

/**
 * The change a card shows, read back from KeyCRM: moved when it is no longer in the status our
 * delivery placed it in (`placed`), at its status_changed_at; the status's id, pipeline and name.
 * Otherwise (still there, or not a card): undefined.
 */
export function movedCard(externalId: string, card: unknown, placed: Placed): CrmStageChange | undefined {
  if (!isObj(card)) return undefined;
  const raw = card as RawCard;
  const statusId = positive(raw.status_id);
  if (statusId === undefined) return undefined;
  const status = isObj(raw.status) ? raw.status : undefined;
  const pipelineId = positive(raw.pipeline_id) ?? positive(status?.pipeline_id);
  const elsewhere = pipelineId !== undefined && placed.pipelineId !== undefined && pipelineId !== placed.pipelineId;
  if (statusId === placed.statusId && !elsewhere) return undefined;
  const name = text(status?.title) ?? text(status?.name);
  const at = timeOf(raw.status_changed_at);
  return {
    externalId,
    ...(at ? { at } : {}),
    stage: {
      id: String(statusId),
      ...(pipelineId !== undefined ? { pipelineId: String(pipelineId) } : {}),
      ...(name ? { name } : {}),
    },
  };
}

/** Where the delivery placed a card by the settings (and the pipelines list when they name no status). */
export async function placedBy(
  settings: unknown,
  pipelinesOf: () => Promise<KeycrmPipeline[]>,
): Promise<Placed | undefined> {
  const parsed = ZKeycrmSettings.safeParse(settings ?? {});
  const s: KeycrmSettings = parsed.success ? parsed.data : {};
  if (s.statusId !== undefined) return { statusId: s.statusId, ...(s.pipelineId ? { pipelineId: s.pipelineId } : {}) };
  const list = await pipelinesOf();
  // No pipeline chosen: KeyCRM's first; a card starts in its pipeline's first status.
  const pipeline = s.pipelineId === undefined ? list[0] : list.find((p) => p.id === s.pipelineId);
  const first = pipeline?.stages[0];
  return pipeline && first ? { statusId: first.id, pipelineId: pipeline.id } : undefined;
}

/** The watch, with the connector's pipelines loader (kept per connection: index.ts). */
export function keycrmStageWatch(
  pipelinesOf: (ctx: KeycrmContext<KeycrmSettings>) => Promise<KeycrmPipeline[]>,
): PastedStageWatch<KeycrmAuth, KeycrmSettings> {
  return {
    setup: 'pasted',
    summary:
      'KeyCRM\'s outgoing webhook (an automation trigger\'s "Відправити Webhook", JSON or form fields): each card it names (id or card_id, at the top or under context, data or card) that we delivered is read back from KeyCRM; one moved from the status we put it in is its first reaction and its stage',
    read(body) {
      const ids = cardIdsOf(body);
      return ids ? ids.map((externalId) => ({ externalId })) : null;
    },
    async confirm(ctx, change) {
      const placed = await placedBy(ctx.settings, () => pipelinesOf(ctx));
      if (!placed) return undefined;
      const { data } = await getCard(ctx, change.externalId);
      return movedCard(change.externalId, data, placed);
    },
  };
}
