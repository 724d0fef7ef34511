// The emulator's Graph nodes and edges: Meta's error envelope, `fields` selection, cursor paging,
// subscribed_apps, the app's subscriptions (with the callback handshake), leads filtering, test leads.
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  decodeCursor,
  type EmulatedForm,
  type EmulatedLead,
  type EmulatedPage,
  type EmulatedToken,
  encodeCursor,
  type GraphState,
  parseFields,
  pick,
} from './emulator-state';
import { GRAPH_API_VERSION } from './versions';

/** The version the emulator's URLs name (graphUrl, dialogUrl, paging links): the one the server calls. */
export const GRAPH_VERSION = GRAPH_API_VERSION;
export interface GraphRuntime {
  appId: string;
  appSecret: string;
  origin(): string;
  state: GraphState;
  throttle: number | null;
  fault: { status: number; times?: number } | null;
  isLoginDenied: boolean;
  callCount: number;
  /** Stores a lead a test_leads call made and sends its webhook like a real one. */
  addLead(lead: EmulatedLead): void;
  /** GET callback?hub.mode=subscribe&hub.challenge&hub.verify_token; true when the challenge came back. */
  verifyCallback(callbackUrl: string, verifyToken: string): Promise<boolean>;
}

export type Params = Record<string, string>;

export interface Call {
  req: FastifyRequest;
  reply: FastifyReply;
  rt: GraphRuntime;
  params: Params;
  method: string;
  /** The version the request named (v27.0): Meta's paging links keep it. */
  version: string;
  path: string;
}

export class GraphFault extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly subcode?: number,
    readonly status = 400,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export function fail(code: number, message: string, subcode?: number): never {
  throw new GraphFault(code, message, subcode);
}

export function unsupported(id: string): never {
  return fail(
    100,
    `Unsupported get request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
    33,
  );
}

export const graphTime = (unix: number) => new Date(unix * 1000).toISOString().replace(/\.\d{3}Z$/, '+0000');
export function requireScope(rt: GraphRuntime, scope: string): void {
  if (rt.state.revokedScopes.has(scope)) {
    fail(200, `(#200) Permissions error: the app is missing the ${scope} permission`);
  }
}

/** A page token of exactly this page. */
export function requirePageToken(token: EmulatedToken, page: EmulatedPage): void {
  if (token.kind !== 'page') fail(210, '(#210) A page access token is required to request this resource.');
  if (token.pageId !== page.id) unsupported(page.id);
}

/** Selected fields of a node, or Meta's "nonexisting field" error. */
export function select(
  node: Record<string, unknown>,
  fields: string | undefined,
  fallback: string,
  known: readonly string[],
  type: string,
) {
  const selection = parseFields(fields?.trim() ? fields : fallback);
  if (!selection) fail(100, `(#100) Syntax error in fields "${fields}"`);
  const { value, unknown } = pick(node, selection!, known);
  if (unknown) fail(100, `(#100) Tried accessing nonexisting field (${unknown}) on node type (${type})`);
  return value;
}

export function paged(
  call: Call,
  rows: Record<string, unknown>[],
  known: readonly string[],
  fallback: string,
  type: string,
) {
  const { params, rt } = call;
  const limit = Math.min(Math.max(Number(params.limit ?? 25) || 25, 1), 100);
  const start = decodeCursor(params.after);
  if (start === null) fail(100, '(#100) Invalid cursor');
  const from = start as number;
  const slice = rows.slice(from, from + limit);
  const end = from + slice.length;
  const data = slice.map((row) => select(row, params.fields, fallback, known, type));
  const paging: Record<string, unknown> = { cursors: { before: encodeCursor(from), after: encodeCursor(end) } };
  if (end < rows.length) {
    const next = new URL(`${rt.origin()}/${call.version}/${call.path}`);
    for (const [k, v] of Object.entries(params)) if (k !== 'after') next.searchParams.set(k, v);
    next.searchParams.set('after', encodeCursor(end));
    paging.next = next.toString();
  }
  return data.length ? { data, paging } : { data };
}

export const PAGE_FIELDS = ['id', 'name', 'access_token', 'category', 'category_list', 'tasks', 'link'] as const;
export const FORM_FIELDS = [
  'id',
  'name',
  'status',
  'locale',
  'questions',
  'leads_count',
  'created_time',
  'page',
] as const;
export const LEAD_NODE_FIELDS = [
  'id',
  'created_time',
  'ad_id',
  'ad_name',
  'adset_id',
  'adset_name',
  'campaign_id',
  'campaign_name',
  'form_id',
  'field_data',
  'is_organic',
  'platform',
  'partner_name',
  'custom_disclaimer_responses',
  'post',
] as const;

export const pageNode = (p: EmulatedPage, withToken: boolean) => ({
  id: p.id,
  name: p.name,
  category: p.category,
  category_list: [{ id: '1', name: p.category }],
  tasks: p.tasks,
  link: `https://www.facebook.com/${p.id}`,
  ...(withToken ? { access_token: p.token } : {}),
});

export function formNode(state: GraphState, f: EmulatedForm) {
  const page = state.pages.find((p) => p.id === f.pageId);
  return {
    id: f.id,
    name: f.name,
    status: f.status,
    locale: f.locale,
    created_time: f.createdTime,
    leads_count: [...state.leads.values()].filter((l) => l.formId === f.id).length,
    page: { id: f.pageId, name: page?.name },
    questions: f.questions.map((q) => ({ id: q.id, key: q.key, label: q.label, type: q.type, options: q.options })),
  };
}

export function leadNode(l: EmulatedLead) {
  return {
    id: l.id,
    created_time: graphTime(l.createdTime),
    form_id: l.formId,
    field_data: l.fieldData,
    is_organic: l.isOrganic,
    platform: l.platform,
    ...(l.isOrganic
      ? {}
      : {
          ad_id: l.adId,
          ad_name: l.adName,
          adset_id: l.adsetId,
          adset_name: l.adsetName,
          campaign_id: l.campaignId,
          campaign_name: l.campaignName,
        }),
  };
}

export function filterLeads(leads: EmulatedLead[], filtering: string | undefined): EmulatedLead[] {
  if (!filtering) return leads;
  let rules: unknown;
  try {
    rules = JSON.parse(filtering);
  } catch {
    fail(100, '(#100) param filtering must be an array.');
  }
  if (!Array.isArray(rules)) fail(100, '(#100) param filtering must be an array.');
  let out = leads;
  for (const rule of rules as { field?: string; operator?: string; value?: unknown }[]) {
    if (rule?.field !== 'time_created') fail(100, `(#100) Filtering field ${rule?.field} is invalid.`);
    const value = Number(rule.value);
    if (!Number.isFinite(value)) fail(100, '(#100) Filtering value must be a unix timestamp.');
    const test: Record<string, (t: number) => boolean> = {
      GREATER_THAN: (t) => t > value,
      GREATER_THAN_OR_EQUAL: (t) => t >= value,
      LESS_THAN: (t) => t < value,
      LESS_THAN_OR_EQUAL: (t) => t <= value,
    };
    const fn = test[rule.operator ?? ''];
    if (!fn) fail(100, `(#100) Filtering operator ${rule.operator} is invalid.`);
    out = out.filter((l) => fn!(l.createdTime));
  }
  return out;
}

export function subscribedApps({ rt, params, method }: Call, token: EmulatedToken, page: EmulatedPage): unknown {
  requirePageToken(token, page);
  const subs = rt.state.pageSubscriptions;
  if (method === 'GET') {
    const fields = subs.get(page.id);
    return {
      data: fields
        ? [
            {
              category: 'Business',
              link: 'https://leadrelay.example',
              name: 'LeadRelay',
              id: rt.appId,
              subscribed_fields: [...fields],
            },
          ]
        : [],
    };
  }
  requireScope(rt, 'pages_manage_metadata');
  if (method === 'DELETE') {
    subs.delete(page.id);
    return { success: true };
  }
  if (method !== 'POST') return unsupported(page.id);
  const fields = (params.subscribed_fields ?? '')
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean);
  if (!fields.length) fail(100, '(#100) The parameter subscribed_fields is required.');
  const allowed = ['leadgen', 'feed', 'messages', 'mention'];
  const wrong = fields.find((f) => !allowed.includes(f));
  if (wrong) fail(100, `(#100) Param subscribed_fields must be one of {${allowed.join(', ')}} - got "${wrong}".`);
  subs.set(page.id, new Set([...(subs.get(page.id) ?? []), ...fields]));
  return { success: true };
}

export async function appSubscriptions({ rt, params, method }: Call, token: EmulatedToken): Promise<unknown> {
  if (token.kind !== 'app') fail(15, '(#15) This method must be called with an app access_token.');
  const { state } = rt;
  if (method === 'GET') {
    const s = state.appSubscription;
    return {
      data: s
        ? [
            {
              object: s.object,
              callback_url: s.callbackUrl,
              active: true,
              fields: s.fields.map((name) => ({ name, version: GRAPH_VERSION })),
            },
          ]
        : [],
    };
  }
  if (method === 'DELETE') {
    if (params.object && params.object !== 'page') fail(100, '(#100) Invalid object');
    state.appSubscription = null;
    return { success: true };
  }
  if (method !== 'POST') return unsupported(rt.appId);
  if (params.object !== 'page') fail(100, '(#100) The parameter object is required and must be "page".');
  const callbackUrl = params.callback_url ?? '';
  if (!/^https?:\/\//.test(callbackUrl)) fail(100, '(#100) The parameter callback_url is required.');
  const fields = (params.fields ?? '')
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean);
  if (!fields.length) fail(100, '(#100) The parameter fields is required.');
  const verifyToken = params.verify_token ?? '';
  if (!(await rt.verifyCallback(callbackUrl, verifyToken))) {
    fail(2200, '(#2200) callback verification failed: the callback did not echo the challenge');
  }
  state.appSubscription = { object: 'page', callbackUrl, verifyToken, fields };
  return { success: true };
}

export function testLead({ rt, params }: Call, token: EmulatedToken, form: EmulatedForm, page: EmulatedPage): unknown {
  requirePageToken(token, page);
  requireScope(rt, 'leads_retrieval');
  if ([...rt.state.leads.values()].some((l) => l.formId === form.id && l.isTest)) {
    fail(100, '(#100) This form already has a test lead. Delete it before creating another one.');
  }
  let fieldData: { name: string; values: string[] }[] | undefined;
  if (params.field_data) {
    try {
      const parsed = JSON.parse(params.field_data) as { name?: unknown; values?: unknown }[];
      if (!Array.isArray(parsed)) throw new Error('not an array');
      fieldData = parsed.map((f) => ({
        name: String(f.name),
        values: Array.isArray(f.values) ? f.values.map(String) : [String(f.values ?? '')],
      }));
    } catch {
      fail(100, '(#100) param field_data must be an array of {name, values}.');
    }
  }
  const id = `${9_000_000_000_000 + rt.state.nextId++}`;
  rt.addLead({
    id,
    formId: form.id,
    pageId: page.id,
    createdTime: Math.floor(Date.now() / 1000),
    fieldData: fieldData ?? sampleFieldData(form, rt.state.nextId),
    isOrganic: true,
    isTest: true,
    platform: 'fb',
  });
  return { id };
}

/** Plausible answers to every question of a form (the testing tool's dummy data). */
export function sampleFieldData(form: EmulatedForm, n: number): { name: string; values: string[] }[] {
  const answer = (key: string, type: string, options?: { key: string; value: string }[]): string => {
    if (options?.length) return options[n % options.length]?.value ?? '';
    switch (type) {
      case 'FULL_NAME':
        return `Test Lead ${n}`;
      case 'FIRST_NAME':
        return 'Test';
      case 'LAST_NAME':
        return `Lead ${n}`;
      case 'EMAIL':
        return `test.lead${n}@example.com`;
      case 'PHONE':
        return `+38050${String(1_000_000 + n).slice(-7)}`;
      case 'CITY':
        return 'Kyiv';
      default:
        return `Answer to ${key}`;
    }
  };
  return form.questions.map((q) => ({ name: q.key, values: [answer(q.key, q.type, q.options)] }));
}
