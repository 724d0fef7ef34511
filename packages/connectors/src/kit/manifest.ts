// What the web needs to know of a connector, and nothing that runs on the server (ADR 014): its
// brand name and logo, and a description of its screens that the web draws with widget kinds
// implemented once. A connector's manifest.ts is browser code: it imports zod, @leadrelay/shared and
// its own logo and words only (never node code, never its client), and the web finds it by folder
// (import.meta.glob over src/*/manifest.ts), so no web file names a connector.
//
// Words are keys into the connector's own words/uk.json (and en.json), shown under the i18n
// namespace `connectors` keyed by the folder's name: `connectors:<slug>.<key>`. A manifest is typed by
// its uk words, so a key they lack fails the type check.
import type { AccountsScreen, AccountsWords } from './manifest-accounts';
import type { ConnectCard } from './manifest-connect';
import type { CollectionCard } from './manifest-people';
import type { SourcePage } from './manifest-source';

export type * from './manifest-accounts';
export type * from './manifest-connect';
export type * from './manifest-people';
export type * from './manifest-source';
export { genericSourceScreen } from './manifest-source';

/** The shape of a validator the web runs on a field before sending (a zod schema from @leadrelay/shared). */
export interface FieldSchema {
  safeParse(value: unknown): { success: true } | { success: false; error: { issues: { message: string }[] } };
}

/** A validator of a card's settings as a whole: its issues say which field (the shared zod schema). */
export interface SettingsSchema {
  safeParse(
    value: unknown,
  ): { success: true } | { success: false; error: { issues: { message: string; path: readonly PropertyKey[] }[] } };
}

// ---- Words ----

type Plural<K extends string> = K extends `${infer Base}_${'zero' | 'one' | 'two' | 'few' | 'many' | 'other'}`
  ? Base
  : K;

/** The dotted keys of a words file ("tabs.log"); a plural's keys are its base ("template.parts"). */
export type WordKey<W> = {
  [K in keyof W & string]: W[K] extends string ? Plural<K> : `${K}.${WordKey<W[K]>}`;
}[keyof W & string];

/** The dotted keys of a words file's groups ("recipients"): a value's words are `<group>.<value>`. */
export type WordGroup<W> = {
  [K in keyof W & string]: W[K] extends string ? never : K | `${K}.${WordGroup<W[K]>}`;
}[keyof W & string];

// ---- The logo ----

/** A drawing: its viewBox and paths (no markup: the web draws them as React paths). */
export interface LogoDrawing {
  viewBox: string;
  paths: readonly { d: string; fill: string }[];
}

/**
 * A brand's own mark from a package that carries it (simple-icons, SVG Logos), in its colours, on white;
 * a brand no package carries: its initials on the brand's colour (our drawing, never an imitation of
 * the mark); a service that is no brand: a glyph of what it does, in the text colour (fill currentColor).
 */
export type ConnectorLogo =
  | { mark: LogoDrawing }
  | { tile: { initials: string; color: string } }
  | { glyph: LogoDrawing };

/** A simple-icons icon as a mark: its one path in the brand's colour. */
export const simpleIconLogo = ({ path, hex }: { path: string; hex: string }): ConnectorLogo => ({
  mark: { viewBox: '0 0 24 24', paths: [{ d: path, fill: `#${hex}` }] },
});

/** The paths of an Iconify icon's body (SVG Logos bodies are plain <path fill d/> lists). */
export function iconifyPaths(body: string): LogoDrawing['paths'] {
  return [...body.matchAll(/<path\b([^>]*)\/>/g)].map(([, attrs = '']) => ({
    d: /\sd="([^"]*)"/.exec(attrs)?.[1] ?? '',
    fill: /\sfill="([^"]*)"/.exec(attrs)?.[1] ?? 'currentColor',
  }));
}

// ---- Calls ----

/**
 * A call of the server a widget makes besides the generic ones (a connector's own path, which the
 * server keeps answering as an alias the connector declares): `:id` in the path is the integration's
 * id; `with` puts the integration's id and the page's language into the JSON body under these names.
 */
export interface ServerCall {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  with?: { id?: string; locale?: string };
}

/** The entries of a list answer, bare or wrapped in `{ data }`, that match the schema (the others are dropped). */
export function listOf<T>(
  schema: { safeParse(value: unknown): { success: true; data: T } | { success: false } },
  raw: unknown,
): T[] {
  const items = Array.isArray(raw) ? raw : (raw as { data?: unknown } | null | undefined)?.data;
  if (!Array.isArray(items)) return [];
  return items.flatMap((item) => {
    const parsed = schema.safeParse(item);
    return parsed.success ? [parsed.data] : [];
  });
}

// ---- Fields ----

/** Shown only while another field of the same form has (or has not) a value. */
export interface Condition {
  field: string;
  is?: string | boolean;
  not?: string | boolean;
}

interface FieldBase<K extends string> {
  /** The key in auth or settings (and the form's field name). */
  name: string;
  label?: K;
  /** The line under the field. */
  hint?: K;
  /** Where the value goes on save: the integration's auth (write-only) or its settings. */
  target?: 'auth' | 'settings';
  visibleWhen?: Condition;
  /** Empty is refused with REQUIRED before the schema runs. */
  required?: boolean;
  /** Checked on the spot (its issue's message is an error code the web translates). */
  schema?: FieldSchema;
  /**
   * The field's own words for empty ("Choose an activity type") and for a value its schema refuses,
   * instead of the error codes'.
   */
  messages?: { required?: K; invalid?: K };
  /** Only chooses which other fields show (a way to sign in): never sent. */
  local?: boolean;
  /** In a row that wraps (`{ row, wrap: true }`), a narrow box (a code, a number of minutes) beside growing ones. */
  narrow?: boolean;
}

/** A default text: as it is, or a word of the connector (a template's default text in the user's language). */
export type DefaultText<K extends string> = string | { word: K };

export interface TextField<K extends string> extends FieldBase<K> {
  kind: 'text' | 'phone';
  maxLength?: number;
  /** A word shown while empty. */
  placeholder?: K;
  /** A technical sample shown while empty, never translated (G-XXXXXXXXXX). */
  example?: string;
  /** Monospaced: an id, a code, a name the service matches exactly. */
  mono?: boolean;
  /** Kept in capitals as typed and sent so. */
  upperCase?: boolean;
  default?: DefaultText<K>;
  /** What the browser may fill in. */
  autoComplete?: 'off' | 'one-time-code';
  /** The keyboard a phone shows (a shop's address: url); `email` is also the box's type. */
  inputMode?: 'url' | 'email' | 'numeric';
}

/**
 * Write-only: "set" with a Replace button while one is stored; required until the connection has one.
 * In a connect form (a `credentials` method), a password box typed afresh each time.
 */
export interface SecretField<K extends string> extends FieldBase<K> {
  kind: 'secret';
  maxLength?: number;
  /** A technical sample shown while empty, never translated (123456789:AA…). */
  example?: string;
  /**
   * What the browser may fill in: by default `new-password` (a password it must not fill in from
   * another site's); `off` for a token.
   */
  autoComplete?: 'off' | 'new-password';
  /** Sent as typed, spaces at its ends included (a password); else trimmed. Blank is empty either way. */
  exact?: boolean;
  /** A word shown while empty ("Optional"). */
  placeholder?: K;
  /** Never asked for: the connection works without one (a signing secret). */
  optional?: boolean;
  /** The word of a button that removes the stored one (an optional secret), shown while one is stored. */
  remove?: K;
}

export interface SwitchField<K extends string> extends FieldBase<K> {
  kind: 'switch' | 'checkbox';
  default?: boolean;
}

/** One of a few values: radio buttons (one under another when they have hints), a select, or a segmented switch. */
export interface ChoiceField<K extends string> extends FieldBase<K> {
  kind: 'radio' | 'select' | 'segmented';
  options: readonly ChoiceOption<K>[];
  default?: string;
  /** Fields another choice empties (the funnels of leads and of deals are different lists). */
  clears?: readonly string[];
  /** Long radio options: the lines they wrap onto keep a gap between them. */
  spaced?: boolean;
}

export interface ChoiceOption<K extends string> {
  value: string;
  label: K;
  /** Said under a radio option. */
  hint?: K;
  /** Said instead of `hint` while the option is not offered (a connect card's state says which are not). */
  hintUnavailable?: K;
  disabled?: boolean;
}

export interface NumberField<K extends string> extends FieldBase<K> {
  kind: 'number';
  min?: number;
  max?: number;
  /** Whole numbers only. */
  integer?: boolean;
  /** The value while none is saved, and what is sent when the box is emptied. */
  default?: number;
}

/** An option a loader's answer gives: its value as the settings keep it (a number id stays a number). */
export interface ListOption {
  value: string | number;
  label: string;
}

/**
 * A choice filled by one of the connector's loaders (GET /api/integrations/:id/:type/lists/<list>):
 * the CRM's users, its activity types. `read` is a pure function of the loader's answer.
 */
export interface ListSelectField<K extends string> extends FieldBase<K> {
  kind: 'list-select';
  list: string;
  read: (answer: unknown) => readonly ListOption[];
  placeholder?: K;
  /** A cross empties it: "not set". */
  clearable?: boolean;
  /** Typing filters the options by name. */
  search?: boolean;
  /**
   * Saved settings the loader reads (a spreadsheet's sheets read the saved spreadsheet): the list is
   * asked again whenever their saved values change.
   */
  dependsOn?: readonly string[];
}

/** A pipeline (a funnel) and its stages, as `read` gives them from a loader's answer. */
export interface Pipeline {
  id: number;
  name: string;
  /** The one the CRM uses when none is chosen (its placeholder names it). */
  main?: boolean;
  /** The stages a new record may go into, in the CRM's order. */
  stages: readonly { id: number; name: string }[];
}

/**
 * A pipeline, then one of its stages (a CRM may call them statuses, or funnels): two choices side by
 * side, the second offering the first's stages; another pipeline empties the stage, and no pipeline
 * sends no stage. `name` is the pipeline's key in the settings, `stage.name` the stage's.
 */
export interface PipelineStageField<K extends string> extends FieldBase<K> {
  kind: 'pipeline-stage';
  /** The loader; or one per value of another field (the funnels of leads, or of deals). */
  list: string | { field: string; lists: readonly { is: string; list: string }[] };
  read: (answer: unknown) => readonly Pipeline[];
  /** While none is chosen: `main` names the main pipeline ({{name}}) when the loader marks one, else `otherwise`. */
  placeholder: { main?: K; otherwise: K };
  /**
   * Said under the pipeline while none is chosen: where a lead goes then (`main` names the main pipeline,
   * {{name}}, when the loader marks one; else `otherwise`). With a main pipeline its stages are offered
   * at once, and picking one chooses that pipeline too.
   */
  unset: { main?: K; otherwise: K };
  stage: { name: string; label: K; placeholder: K; needsPipeline: K };
}

/** Words typed and kept as a list (tags): Enter or a comma ends one; up to `max`. */
export interface TagsField<K extends string> extends FieldBase<K> {
  kind: 'tags';
  max: number;
}

/**
 * A switch (its label and hint are the field's) that opens a few fields kept together as one object
 * under `name` (a follow-up activity); switched off, the object is left out.
 */
export interface GroupField<K extends string> extends FieldBase<K> {
  kind: 'group';
  items: readonly Field<K>[];
}

/** A line of words among the fields (what becomes of a password); it holds no value. */
export interface NoteField<K extends string> extends FieldBase<K> {
  kind: 'note';
  text: K;
}

/** A lead field's path (name, utm.source, custom.city), checked as the shared ZLeadPath. */
export interface LeadPathField<K extends string> extends FieldBase<K> {
  kind: 'lead-path';
  default?: string;
}

/**
 * A message template: buttons insert the lead's fields ({name}), a preview fills them from a sample
 * lead; `counter: 'sms'` counts the rendered text in SMS parts (the shared countSms).
 */
export interface TemplateField<K extends string> extends FieldBase<K> {
  kind: 'template';
  placeholders: readonly string[];
  /** The caption above the preview ("The customer sees:"). */
  preview: K;
  counter?: 'sms';
  maxLength?: number;
  default?: DefaultText<K>;
}

/** A daily window that may run past midnight: a switch and two times (HH:MM); saved as { enabled, from, to }. */
export interface TimeRangeField<K extends string> extends FieldBase<K> {
  kind: 'time-range';
  from: K;
  to: K;
  default: { enabled: boolean; from: string; to: string };
}

/**
 * A list of rows of a name and, beside it, a lead field ({ name, from }: an event's parameters) or a
 * text of its own ({ name, value }: a request header's), up to `max`. `keyed`: kept as one object
 * { <name>: <value> } (headers), not as a list of rows.
 */
export interface PairsField<K extends string> extends FieldBase<K> {
  kind: 'pairs';
  /** The heading above the list; `hint` is shown under it with {{max}}. */
  title: K;
  max: number;
  /** The row's name box: its label (also its placeholder), check and the word when refused. */
  itemName: { label: K; schema?: FieldSchema; mono?: boolean; invalid?: K };
  /** The row's second box: a lead field's path, or a value typed (`{ value: … }`). */
  itemFrom: { label: K } | { value: { label: K; schema?: FieldSchema; invalid?: K } };
  keyed?: boolean;
  add: K;
  remove: K;
}

export type Field<K extends string> =
  | TextField<K>
  | SecretField<K>
  | SwitchField<K>
  | ChoiceField<K>
  | NumberField<K>
  | LeadPathField<K>
  | TemplateField<K>
  | TimeRangeField<K>
  | PairsField<K>
  | ListSelectField<K>
  | PipelineStageField<K>
  | TagsField<K>
  | GroupField<K>
  | NoteField<K>;

/**
 * Fields side by side, two in a row on a wide screen and one on a phone; `wrap`: as many as fit,
 * each growing (a `narrow` one keeps small), wrapping onto the next line.
 */
export interface FieldRow<K extends string> {
  row: readonly Field<K>[];
  wrap?: boolean;
}

export type FormItem<K extends string> = Field<K> | FieldRow<K>;

// ---- Cards ----

/** Column spans of a card in its tab (antd's grid of 24): { xs: 24, lg: 10 }. */
export interface Span {
  xs?: number;
  md?: number;
  lg?: number;
  xl?: number;
  xxl?: number;
}

interface CardBase {
  span?: Span;
}

/** Name, active, status, delete: every integration's. */
export interface GeneralCard extends CardBase {
  widget: 'general';
}

/**
 * The credentials (secret fields to auth, ids to settings), saved with a connection check; the check
 * again on a button; and a figure a loader reads (the balance). Fields with `target: 'auth'` that are
 * not secret (an app's ID) are typed with the secrets: shown while none is stored or they are being
 * replaced, never shown back; typing one of the auth fields asks for the others.
 */
export interface CredentialsCard<K extends string> extends CardBase {
  widget: 'credentials';
  title: K;
  /** A line under the title (where the keys are found). */
  text?: K;
  fields: readonly Field<K>[];
  save: K;
  /** The save button's word while not connected (else `save`). */
  connect?: K;
  /** The check's outcome, after a save or the check button. */
  result: { ok: K; failed: K };
  /** A "check the connection" button, shown once connected. */
  check?: K;
  /** A number a loader (GET …/lists/<list>) reads, shown while connected, with a refresh button. */
  figure?: { list: string; label: K; refresh: K; format: 'money' };
}

/**
 * Settings drawn from field specs, validated with `schema` as a whole before sending. A card whose
 * fields read loaders (`list-select`, `pipeline-stage`) shows once they have answered: until the
 * connection works it asks to connect first, and a loader's failure shows in it with a retry.
 */
export interface FormCard<K extends string> extends CardBase {
  widget: 'form';
  title: K;
  items: readonly FormItem<K>[];
  save: K;
  /** The shared schema of the settings, run on them as a whole before sending. */
  schema?: SettingsSchema;
  /** Said when the server refuses a setting this card does not show (set on another tab first). */
  elsewhere?: K;
  /** The toast once saved (else the common "Saved"). */
  saved?: K;
  /** Said with the reason when the connection check that follows saving fails. */
  checkFailed?: K;
  /** Empty settings (null, "", []) are left out of the saved object, so a cleared choice means "not set". */
  omitEmpty?: boolean;
}

/** A record table column: how one field of a record is shown, in the table and on a phone's card. */
export type RecordColumn<K extends string, G extends string> =
  | { show: 'date-time'; field: string; title: K }
  | { show: 'status'; title: K }
  | { show: 'text'; field: string; title: K }
  /** A phone as +digits, and under it another field's value in words (`words` prefix). */
  | { show: 'phone'; field: string; title: K; under?: { field: string; words: G } }
  /** A count, and under it a word while another field's value is not `except` (Viber unless sent as SMS). */
  | { show: 'count'; field: string; title: K; note?: { field: string; except: string; word: K } }
  /** A decimal amount (2 to 4 digits after the point), "—" when absent. */
  | { show: 'amount'; field: string; title: K };

/** A paged log of the records of one kind a connector keeps (GET /api/integrations/:id/records/:kind). */
export interface RecordsCard<K extends string, G extends string> extends CardBase {
  widget: 'records';
  record: string;
  title: K;
  hint: K;
  empty: K;
  statuses: { label: K; all: K; options: readonly { value: string; label: K; color: string }[] };
  columns: readonly { width?: number; column: RecordColumn<K, G> }[];
}

/**
 * The connection made by one of the page's `connect` methods: its state (and why it broke), the
 * button that connects (the first method: a provider's consent, or a form in a dialog), "Reconnect"
 * once connected, the connection check; then its sections, in turn.
 */
export interface ConnectionCard<K extends string, G extends string> extends CardBase {
  widget: 'connection';
  sections?: readonly ConnectionSection<K, G>[];
}

/** What the connection card shows below its buttons. */
export type ConnectionSection<K extends string, G extends string> =
  | AccountSection<K, G>
  | SnapshotsSection<K>
  | { show: 'method'; method: string }
  | { show: 'stage-watch' };

/**
 * How the connection is made, nothing secret (a portal, the way, the account), read with `call`
 * whenever the integration changes; shown once connected and when the answer's `when` is true. A
 * dialog that connects again opens with these values in the fields of the same names.
 */
export interface AccountSection<K extends string, G extends string> {
  show: 'account';
  call: ServerCall;
  when: string;
  rows: readonly {
    field: string;
    label: K;
    /** The value's word in a group of the words (`modes` → `modes.webhook`), `fallback` when absent. */
    words?: { group: G; fallback: string };
  }[];
}

/**
 * Snapshots an action makes on demand and a list call reads back (a CRM's backups): each a row with
 * its time and a summary, downloadable as JSON (`<file>-<time>.json`). Shown once connected.
 */
export interface SnapshotsSection<K extends string> {
  show: 'snapshots';
  make: ServerCall;
  list: ServerCall;
  title: K;
  hint: K;
  create: K;
  created: K;
  empty: K;
  download: K;
  file: string;
  /** The row's line: a word and the numbers `count` reads from a snapshot. */
  summary: { word: K; count: (snapshot: unknown) => Readonly<Record<string, number>> };
}

/** A field of the CRM a lead field can be mapped to; `enums`: a list field's options. */
export interface MappingTarget {
  key: string;
  name: string;
  enums?: readonly { id: number; value: string }[];
}

/**
 * Our lead's fields → the CRM's own fields, in rows (a lead field, a CRM field from the groups'
 * loaders); saved as the settings' `fields`, `{ from, entity, <stored.key> }` each. A list field's
 * values may be mapped to its options (`stored.enums`: `{ our value: option id }`).
 */
export interface MappingCard<K extends string> extends CardBase {
  widget: 'mapping';
  hint: K;
  max: number;
  /** One group of CRM fields per entity, shown while the saved settings meet `when`. */
  groups: readonly {
    entity: string;
    label: K;
    list: string;
    read: (answer: unknown) => readonly MappingTarget[];
    when?: Condition;
  }[];
  stored: { key: string; numeric?: boolean; enums?: boolean };
}

/**
 * The CRM's users (who a lead can be assigned to), with their ids to copy, and a distribution
 * collection of them made in one click.
 */
export interface UsersCard extends CardBase {
  widget: 'users';
  list: string;
  read: (answer: unknown) => readonly { id: number; name: string; email?: string }[];
}

/**
 * Webhooks registered at the CRM itself (listed, added, deleted with these calls; the list answers
 * `{ id, url, event, active }` each): an address, and an event `<action>.<object>` from the choices.
 */
export interface WebhooksCard<K extends string> extends CardBase {
  widget: 'webhooks';
  list: ServerCall;
  create: ServerCall;
  /** The webhook's id goes in the query as `id`. */
  remove: ServerCall;
  url: { schema: FieldSchema; example: string };
  actions: readonly { value: string; label: K }[];
  objects: readonly { value: string; label: K }[];
  /** The choices a new webhook starts with. */
  initial: { action: string; object: string };
}

/** What a test action found, in a shape the test-send widget shows. */
export interface ActionReport {
  ok: boolean;
  /** Our own checks' findings: a reason code (translated as a connection's reasons are) and where. */
  issues: readonly { code: string; path?: string }[];
  /** The service's findings: its code (a word under `codes`, else the code), where, and its own sentence. */
  messages: readonly { code: string; path?: string; text?: string }[];
  /** What would be sent. */
  payload?: unknown;
}

/** A sample lead's fields, sent to a connector action (POST /api/integrations/:id/actions/:action) as { lead }. */
export interface TestSendCard<K extends string, G extends string> extends CardBase {
  widget: 'test-send';
  action: string;
  title: K;
  hint: K;
  /** The lead's fields: `path` in the lead (utm.source, custom._ga). */
  fields: readonly {
    path: string;
    label: K;
    placeholder?: K;
    example?: string;
    maxLength?: number;
    mono?: boolean;
    inputMode?: 'email' | 'tel';
  }[];
  send: K;
  /** The action's answer read as a report. */
  report: (answer: unknown) => ActionReport;
  words: { ok: K; okHint: K; failed: K; said: K; payload: K; codes: G };
}

export type PageCard<K extends string, G extends string> =
  | GeneralCard
  | CredentialsCard<K>
  | FormCard<K>
  | RecordsCard<K, G>
  | TestSendCard<K, G>
  | ConnectionCard<K, G>
  | MappingCard<K>
  | UsersCard
  | WebhooksCard<K>
  | ConnectCard<K, G>
  | CollectionCard<K>
  | StackCard<K, G>;

/** Cards one under another in one column of the tab (the bot, then its managers). */
export interface StackCard<K extends string, G extends string> extends CardBase {
  widget: 'stack';
  cards: readonly PageCard<K, G>[];
}

// ---- Connecting ----

interface ConnectMethodBase<K extends string> {
  key: string;
  /** Its choice in the new connection's dialog when there are several. */
  label?: K;
}

/**
 * Through the provider's consent page: the `start` calls run in turn (each after the first is sent the
 * one before's answer) and the last answer's `url` field is the page. `tab`: it opens in a new tab
 * (this page hears of the connection as it is made). The provider comes back either to the integration's
 * page with `?connected=1` or `?error=CODE` (`returns: 'page'`), or to `/admin/integrations/<slug>/connect`
 * with `?code=…&state=…`, which `exchange` sends on (its answer names the `integrationId`).
 */
export interface OAuthMethod<K extends string> extends ConnectMethodBase<K> {
  kind: 'oauth';
  start: readonly ServerCall[];
  url: string;
  tab?: boolean;
  returns: 'page' | { exchange: ServerCall };
}

/**
 * Credentials typed in (an API token, a portal's sign-in, an incoming webhook's address) and sent
 * with `call`, with the fields' values: in the new connection's dialog, in the connection card's
 * dialog when it is the first method, or folded in the card (`folded`, shown by a `method` section).
 */
export interface CredentialsMethod<K extends string> extends ConnectMethodBase<K> {
  kind: 'credentials';
  call: ServerCall;
  items: readonly FormItem<K>[];
  folded?: { title: K; hint: K; save: K };
  /** On the list page, a refusal is said as "Could not connect <name>: <why>". */
  sayFailed?: boolean;
}

export type ConnectMethod<K extends string> = OAuthMethod<K> | CredentialsMethod<K>;

export interface PageTab<K extends string, G extends string> {
  /** In the URL (?tab=). */
  key: string;
  label: K;
  cards: readonly PageCard<K, G>[];
}

/** /admin/integrations/<slug> (its connections, a new one) and /admin/integrations/<slug>/:id. */
export interface ConnectorPage<K extends string, G extends string> {
  /** The browser tab's title. */
  title: K;
  /** The type's name in the user's language where it is no brand (HTTP webhook); else the brand (`name`). */
  name?: K;
  /**
   * `defaultName`: a new connection's name (the brand's by default); `empty`: what the list says while the
   * account has none of the type (what it is for), its first step being `connect`.
   */
  list: { subtitle: K; connect: K; defaultName?: K; empty: { title: K; text: K } };
  detail: { back: K; notConnected: K; tabs: readonly PageTab<K, G>[] };
  /**
   * How a connection is made, when not by a `credentials` card: a new one is named and connected in one
   * dialog (a choice of these methods when there are several), and the `connection` card connects again.
   */
  connect?: { methods: readonly [ConnectMethod<K>, ...ConnectMethod<K>[]] };
}

export interface ConnectorManifest<K extends string = string, G extends string = string> {
  slug: string;
  kind: 'source' | 'destination';
  /** The brand, never translated. */
  name: string;
  logo: ConnectorLogo;
  /** Its screens; without one the web shows the generic integration pages. */
  page?: ConnectorPage<K, G>;
  /** A source's cards and mapping sample on the generic source integration page. */
  source?: SourcePage<K, G>;
  /**
   * A lead-form source's connections kept by the account (kit/manifest-accounts.ts): its connections
   * page, its integrations list and the cards of its integration's page.
   */
  accounts?: AccountsScreen;
  /**
   * Its leads' CRM stages go back to the service as conversion events (issue 33; the connector's
   * `conversions`): the source page shows the conversions card. `to` is the brand they go to (Meta),
   * never translated; `reconnect`, the error keys of its datasets' call that connecting the account
   * again mends (the card then points to the connections page).
   */
  conversions?: { to: string; reconnect: readonly string[] };
}

/**
 * An `accounts` screen typed by the connector's words: they must carry every word the widgets say
 * (`accountsScreen<typeof words>({ … })`).
 */
export function accountsScreen<_W extends AccountsWords>(screen: AccountsScreen): AccountsScreen {
  return screen;
}

/** Types a manifest by its words: `defineManifest<typeof words>({ … })`, `words` being words/uk.json's type. */
/**
 * The words most pages put under the same keys (README "Adding a connector" 3): a manifest spreads
 * them instead of spelling them out, and its words' type still checks that each key exists.
 */
export const LIST_WORDS = {
  subtitle: 'list.subtitle',
  connect: 'list.connect',
  empty: { title: 'list.empty.title', text: 'list.empty.text' },
} as const;
/** The detail page's back link and its note while not connected, under the usual keys. */
export const DETAIL_WORDS = { back: 'page.back', notConnected: 'page.notConnected' } as const;
/** The general card (name, switch, type, status) where most pages put it: left of the connection. */
export const GENERAL_CARD = { widget: 'general', span: { xs: 24, lg: 10 } } as const;

export function defineManifest<W = Record<string, never>>(
  manifest: ConnectorManifest<WordKey<W>, WordGroup<W>>,
): ConnectorManifest {
  return manifest as ConnectorManifest;
}
