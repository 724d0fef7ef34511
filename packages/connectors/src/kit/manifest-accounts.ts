// The `accounts` screens of a lead-form source (ADR 014, "Account connections"): connections that
// belong to the account, not to one integration (an ad platform's profile signed in once, its pages,
// their lead forms), and integrations that each take one form's leads. The web draws, with widget kinds
// implemented once: the connections page (/admin/integrations/<slug>: a sign-in button, each
// connection with its status, expiry, reconnect and remove, its assets with subscribe toggles and
// their forms on demand, "create integration" per form), the integrations list page
// (/admin/integrations/<listPath>, a form picker to make one), and on the generic source integration
// page the source card (connection, asset, form; move to another connection) and the mapping with a
// sample lead of the form and a test-lead sender. Other ad platforms' lead forms have the same shape.
//
// The calls are the manifest's data; `read` functions turn their answers into the widgets' shapes.

/** A path with `:id` (the integration), `:connection` and `:asset` in place; query and body as named. */
export interface AccountCall {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  /** A fixed query (refresh=1). */
  query?: Readonly<Record<string, string>>;
  /** The connection's and the asset's ids, the page's language put into the JSON body under these names. */
  body?: { connection?: string; asset?: string; locale?: string };
}

/** A connection of the account (a profile signed in at the service), as the widgets show it. */
export interface AccountConnection {
  id: string;
  /** Its id at the service: whose picture. */
  accountId: string;
  name: string;
  email?: string;
  broken: boolean;
  /** Why it broke (the service's words), when it did. */
  reason: string | null;
  /** When its access ends (ISO); null when it does not. */
  expiresAt: string | null;
  assets: readonly AccountAsset[];
}

/** A page (an ad account) a connection manages, and whether its leads come to us. */
export interface AccountAsset {
  id: string;
  name: string;
  category: string | null;
  subscribed: boolean;
}

/** A lead form of an asset, with its questions (their keys are the lead's fields). */
export interface LeadFormView {
  id: string;
  name: string;
  /** ACTIVE, ARCHIVED…: a word under `forms.statuses` when there is one, else as it is. */
  status: string;
  questions: readonly { key: string; label: string; type: string }[];
}

/** An asset's state now, live from the service. */
export interface AssetState {
  subscribed: boolean;
  forms: readonly LeadFormView[];
}

/** An asset of any connection, as the form picker offers it. */
export interface AssetItem {
  connectionId: string;
  connectionName: string;
  assetId: string;
  assetName: string;
}

/**
 * The words the widgets say, in the connector's words at their root (`connectors:<slug>.<key>`): a
 * manifest with `accounts` is typed against this shape (`accountsScreen<typeof words>`), so a word the
 * widgets need and the words lack fails the type check.
 */
export interface AccountsWords {
  title: string;
  subtitle: string;
  somethingWrong: string;
  /** The create-integration picker's note: integrations of this type are made on the list page. */
  guided: string;
  connect: { button: string; done: string; failed: string };
  status: {
    ok: string;
    broken: string;
    expired: string;
    expiresToday: string;
    expiresIn_one: string;
    expiresIn_other: string;
  };
  connection: {
    refresh: string;
    reconnect: string;
    remove: string;
    removeConfirm: string;
    removeHint: string;
    removeFor: string;
    brokenTitle: string;
    brokenHint: string;
  };
  pages: {
    title: string;
    none: string;
    subscribed: string;
    unsubscribed: string;
    subscribeFor: string;
    on: string;
    off: string;
    forms: string;
  };
  forms: { created: string; none: string; questions: string; create: string; createFor: string };
  empty: { title: string; text: string };
  list: {
    open: string;
    title: string;
    subtitle: string;
    connections: string;
    new: string;
    /** The list while it has no integration. */
    empty: { title: string; text: string };
  };
  create: {
    title: string;
    submit: string;
    noPages: string;
    page: string;
    pageRequired: string;
    pagePlaceholder: string;
    form: string;
    formRequired: string;
    formPlaceholder: string;
    name: string;
    nameRequired: string;
  };
  source: {
    title: string;
    manage: string;
    connection: string;
    connectionGone: string;
    page: string;
    form: string;
    notSubscribed: string;
    brokenTitle: string;
    goneTitle: string;
    migrateHint: string;
    reconnectHint: string;
    migrateTo: string;
    migrate: string;
    migrated: string;
  };
  testLead: { send: string; hint: string; sent: string };
  mapping: { standardOnly: string };
}

export interface AccountsScreen {
  /** The integrations list's own path under /admin/integrations (kept from before: `fb`). */
  listPath: string;
  /** Where an integration keeps which connection, asset and form it takes leads from. */
  settings: { connection: string; asset: string; form: string };
  calls: {
    /** Sign in at the service: the answer's `url` field is its page; it comes back with ?connected=<id> or ?error=CODE. */
    start: AccountCall & { url: string };
    /** The account's connections with their assets. */
    connections: AccountCall;
    /** A profile's or asset's picture (its id in the query under `idQuery`), kept `keepMs`. */
    picture: AccountCall & { idQuery: string; keepMs: number };
    /** The assets read again from the service. */
    refresh: AccountCall;
    /** An asset's state (`:connection`, `:asset`). */
    asset: AccountCall;
    subscribe: AccountCall;
    unsubscribe: AccountCall;
    /** A connection removed (`:connection`). */
    remove: AccountCall;
    /** An asset's lead forms. */
    forms: AccountCall;
    /** Every asset of every connection, for the form picker. */
    items: AccountCall;
    /** An integration moved to another connection (`:id`; `body.connection`). */
    migrate: AccountCall;
    /** A test lead made at the service on the integration's form (`:id`), `answers` in the body under `answersField`. */
    testLead: AccountCall & { answersField: string };
  };
  read: {
    connections: (answer: unknown) => readonly AccountConnection[];
    asset: (answer: unknown) => AssetState;
    forms: (answer: unknown) => readonly LeadFormView[];
    items: (answer: unknown) => readonly AssetItem[];
  };
  /** The mapping's sample and the test lead: answers to a form's questions and the payload a lead becomes. */
  sample: {
    /** Before the form's questions are known. */
    standard: LeadFormView['questions'];
    answers: (form: Pick<LeadFormView, 'questions'>) => unknown;
    payload: (form: Pick<LeadFormView, 'id' | 'questions'>) => Record<string, string>;
  };
  /** The brand's colour: behind its mark where a profile or asset has no picture. */
  color: string;
  /** Days before the access ends from which its expiry is said in red. */
  warnDays: number;
}
