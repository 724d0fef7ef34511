// What a lead SOURCE's manifest declares for its screen (ADR 014, "Sources"): the cards the generic
// source integration page draws beside the general card (a `connect` card with the subscription and
// poll sections, the items it has seen) and the mapping tab's sample. They read the source's state
// (GET /api/integrations/:id/source, kit/source.ts `state`) through the manifest's `read`, or, for a
// source that declares no state of its own, the server's generic one.
import type { ConnectCard, ConnectionView } from './manifest-connect';

/** One item the source has seen (an order), as the screen lists it. */
export interface SeenItem {
  id: string;
  via: 'webhook' | 'poll';
  timesSeen: number;
  /** Its lead's hook status now; null once the hook was deleted. */
  status: string | null;
  /** When it came first. */
  at: string;
  summary: Readonly<Record<string, string | null>>;
}

/** The source's state as its cards read it. */
export interface SourceScreen<K extends string> {
  connection: ConnectionView<K>;
  /** Our receiver at the sender. */
  subscription?: { status: 'none' | 'active' | 'removed'; registeredAt: string | null; removedAt: string | null };
  poll?: { lastRunAt: string | null; lastError: string | null };
  /** Newest first. */
  items: readonly SeenItem[];
}

/**
 * Our receiver registered at the sender (POST|DELETE /api/integrations/:id/source/subscription):
 * its state ({{date}} in `active` and `removed`), register (again) and remove.
 */
export interface SubscriptionSection<K extends string> {
  section: 'subscription';
  words: {
    title: K;
    none: K;
    active: K;
    removed: K;
    register: K;
    registerAgain: K;
    registered: K;
    remove: K;
    removeConfirm: K;
    removedOk: K;
    /** Said under the buttons (the sender's delay). */
    note?: K;
  };
}

/**
 * The periodic poll (POST /api/integrations/:id/source/poll now): how often, the last run ({{date}}
 * in `last`), its error (a code: a word under `errors`, else a server error's words), "check now".
 */
export interface PollSection<K extends string, G extends string> {
  section: 'poll';
  words: {
    title: K;
    every: K;
    /** Said instead of `every` while the integration is off. */
    inactive: K;
    last: K;
    never: K;
    now: K;
    checked: K;
    failed: K;
    errors?: G;
  };
}

export type SourceSection<K extends string, G extends string> = SubscriptionSection<K> | PollSection<K, G>;

/**
 * The items the source has seen, newest first, each with what became of its lead: a table on a
 * wide screen, a list on a phone.
 */
export interface SeenCard<K extends string> {
  widget: 'seen';
  title: K;
  empty: K;
  /** The item's column: its name ({{id}}) over when it came first. */
  item: { title: K; name: K };
  /** Who: the summary's fields, the first over the others. */
  who?: { title: K; fields: readonly string[] };
  /** An amount in the summary, with its currency's field (shown as money when it is a known code). */
  amount?: { title: K; field: string; currency?: string };
  /** Its lead: the hook's status (`noHook` once deleted), how it came, and how often ({{count}} in `times`, {{times}} in `repeats`). */
  lead: { title: K; webhook: K; poll: K; times: K; repeats: K; noHook: K };
}

export type SourceCard<K extends string, G extends string> = ConnectCard<K, G> | SeenCard<K>;

/** A source's screen on the generic integration page. */
export interface SourcePage<K extends string, G extends string> {
  /** The source's state read for the cards; absent: the server's generic state. */
  read?: (state: unknown) => SourceScreen<K>;
  /** Beside the general card on the settings tab, one under another. */
  cards: readonly SourceCard<K, G>[];
  /** The mapping tab's sample: a typical item's payload as the server makes it, and what to say of it. */
  mapping?: { sample: Readonly<Record<string, string>>; note?: K };
  /** What its list says while the account has none (what it is for), and its first step's button. */
  empty: { title: K; text: K; action: K };
}

const record = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
const textOr = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** The server's generic state (a source with no `state` of its own) as the cards read it. */
export function genericSourceScreen(state: unknown, connected: boolean): SourceScreen<string> {
  const s = record(state);
  const sub = record(s.subscription);
  const poll = record(s.poll);
  const status = sub.status === 'active' || sub.status === 'removed' ? sub.status : 'none';
  return {
    connection: { connected, details: [] },
    subscription: { status, registeredAt: textOr(sub.registeredAt), removedAt: textOr(sub.removedAt) },
    poll: { lastRunAt: textOr(poll.lastRunAt), lastError: textOr(poll.lastError) },
    items: (Array.isArray(s.seen) ? s.seen : []).map((raw) => {
      const item = record(raw);
      return {
        id: String(item.id ?? ''),
        via: item.via === 'poll' ? 'poll' : 'webhook',
        timesSeen: typeof item.timesSeen === 'number' ? item.timesSeen : 1,
        status: textOr(item.status),
        at: textOr(item.firstSeenAt) ?? '',
        summary: record(item.summary) as Record<string, string | null>,
      };
    }),
  };
}
