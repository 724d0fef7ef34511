// The `connect` widget kind (kit/manifest.ts, ADR 014): credentials typed in on a connector's own
// form and sent once to a path of ours that checks them with the service before anything is stored
// (a shop's address and API admin, a bot's token), and what the connection is now (the shop, the
// bot), read from a state path of ours. A source's card reads the source's state and shows its
// subscription and poll under the connection (manifest-source.ts).
import type { FormItem, Span } from './manifest';
import type { SourceSection } from './manifest-source';

/** A path of ours the web calls; `:id` stands for the integration's id. */
export type OwnPath = `/api/${string}`;

/** A piece of a connection's detail, drawn in a row with the others. */
export type DetailPiece<K extends string> =
  /**
   * As it is (a login, a host, @bot); a link when `href`; with a copy button when `copy` (what the
   * person pastes elsewhere: a webhook address, a key), in a monospace face.
   */
  | { text: string; href?: string; copy?: boolean }
  /** A word of the connector with its values; in a tag of that colour when `tag` ('gold', 'blue', 'default'). */
  | { word: K; values?: Readonly<Record<string, string>>; tag?: string }
  /** A mark of what it is, before the rest. */
  | { icon: ConnectIcon };

export type ConnectIcon = 'shop' | 'bot';

/** One line of what the connection is: its label and its value. */
export interface ConnectionDetail<K extends string> {
  label: K;
  value: readonly DetailPiece<K>[];
}

/** What a connect card shows of the state path's answer. */
export interface ConnectionView<K extends string> {
  connected: boolean;
  /** Shown while connected (and before, with `detailsFirst`). */
  details: readonly ConnectionDetail<K>[];
  /**
   * The details are shown while not connected too, above the form: what the person pastes at the
   * sender first (our address), whose answer the form then takes (the sender's token).
   */
  detailsFirst?: boolean;
  /** The form's first values (the shop's address as stored, the bot the server offers). */
  initial?: Readonly<Record<string, unknown>>;
  /** Options of a choice field not offered now: field → values (the platform's bot on a server without one). */
  unavailable?: Readonly<Record<string, readonly string[]>>;
}

/**
 * The connection and the form to make or change it. Connected, the details and a Change button;
 * else (or changing) the form, whose fields' values (visible, not `local`) go to `submit` as JSON.
 * A refusal that names no field stays on the form until the next try; one that does goes onto it.
 */
export interface ConnectCard<K extends string, G extends string> {
  widget: 'connect';
  span?: Span;
  title: K;
  /** A mark before the title, in a colour (#0b8a5f). */
  mark?: { icon: ConnectIcon; color?: string };
  /** Where the connection is read; a source's card without one reads the source's state (GET …/source). */
  state?: { path: OwnPath; read: (answer: unknown) => ConnectionView<K> };
  /** Said above the form while not connected. */
  intro?: K;
  /** Said under the form while not connected: what to do next. */
  next?: K;
  fields: readonly FormItem<K>[];
  /**
   * The card only shows its state (what to paste at the CRM): no form, no submit, no Change button.
   * (A card without fields may still submit: Google Ads' "make the address and key".)
   */
  stateOnly?: boolean;
  /**
   * Default: POST /api/integrations/:id/connect (answering {data: {integration}}). `idField` puts the
   * integration's id in the body under that name; `answersState`: the answer is the new state, shown at once.
   */
  submit?: { path: OwnPath; idField?: string; answersState?: boolean };
  words: { submit: K; done: K; change: K; cancel: K };
  /** The details in a bordered table. */
  bordered?: boolean;
  /** A source's parts under the connection, once connected: its subscription at the sender, its poll. */
  sections?: readonly SourceSection<K, G>[];
}
