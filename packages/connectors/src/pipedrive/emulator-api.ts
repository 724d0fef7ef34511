// The Pipedrive emulator's data API: the v1 and v2 calls the connector makes, with Pipedrive's
// envelope and its validation (custom values must fit their field's type, stages their pipeline).
// Served by emulator.ts behind its gate (log, latency, faults, auth, burst limit).
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export type Row = Record<string, unknown> & { id: number };
export interface Field {
  id: number;
  key: string;
  name: string;
  field_type: string;
  options: { id: number; label: string }[] | null;
  edit_flag: boolean;
  mandatory_flag: boolean;
  active_flag: boolean;
}

/** Seeded custom field keys (40 hex), for tests. */
export const PIPEDRIVE_SEED = {
  users: [
    { id: 101, name: 'Anna Admin', email: 'anna@acme.test' },
    { id: 102, name: 'Borys Sales', email: 'borys@acme.test' },
  ],
  pipelines: [
    {
      id: 1,
      name: 'Sales',
      stages: [
        { id: 11, name: 'New' },
        { id: 12, name: 'Qualified' },
        { id: 13, name: 'Won' },
      ],
    },
    {
      id: 2,
      name: 'Partners',
      stages: [
        { id: 21, name: 'Intro' },
        { id: 22, name: 'Signed' },
      ],
    },
  ],
  dealFields: {
    comment: 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345601',
    budget: 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345602',
    channel: 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345603',
    cities: 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345604',
    visitDate: 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345605',
  },
  channelOptions: [
    { id: 31, label: 'Facebook' },
    { id: 32, label: 'Google' },
  ],
  cityOptions: [
    { id: 41, label: 'Kyiv' },
    { id: 42, label: 'Lviv' },
    { id: 43, label: 'Odesa' },
  ],
  personFields: { source: 'b1b2c3d4e5f60718293a4b5c6d7e8f9012345601' },
  activityTypes: [
    { id: 1, key_string: 'call', name: 'Call' },
    { id: 2, key_string: 'meeting', name: 'Meeting' },
  ],
} as const;

export function seedFields() {
  const S = PIPEDRIVE_SEED;
  const sys = (id: number, key: string, name: string, field_type: string): Field => ({
    id,
    key,
    name,
    field_type,
    options: null,
    edit_flag: false,
    mandatory_flag: key === 'title' || key === 'name',
    active_flag: true,
  });
  const custom = (
    id: number,
    key: string,
    name: string,
    field_type: string,
    options?: readonly { id: number; label: string }[],
  ): Field => ({
    ...sys(id, key, name, field_type),
    edit_flag: true,
    options: options ? options.map((o) => ({ ...o })) : null,
  });
  return {
    dealFields: [
      sys(1, 'title', 'Title', 'varchar'),
      sys(2, 'value', 'Value', 'monetary'),
      sys(3, 'expected_close_date', 'Expected close date', 'date'),
      custom(4, S.dealFields.comment, 'Comment', 'varchar'),
      custom(5, S.dealFields.budget, 'Budget', 'double'),
      custom(6, S.dealFields.channel, 'Channel', 'enum', S.channelOptions),
      custom(7, S.dealFields.cities, 'Cities', 'set', S.cityOptions),
      custom(8, S.dealFields.visitDate, 'Visit date', 'date'),
    ],
    personFields: [
      sys(21, 'name', 'Name', 'varchar'),
      sys(22, 'email', 'Email', 'varchar'),
      sys(23, 'phone', 'Phone', 'phone'),
      custom(24, S.personFields.source, 'Source', 'varchar'),
    ],
    organizationFields: [sys(41, 'name', 'Name', 'varchar'), sys(42, 'address', 'Address', 'address')],
  };
}

const HEX40 = /^[0-9a-f]{40}$/i;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const WEBHOOK_ACTIONS = new Set(['create', 'change', 'delete', '*']);
const WEBHOOK_OBJECTS = new Set([
  'activity',
  'deal',
  'lead',
  'note',
  'organization',
  'person',
  'pipeline',
  'product',
  'stage',
  'user',
  '*',
]);

export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}
const bad = (message: string) => new ApiFailure(400, message);
const notFound = (what: string) => new ApiFailure(404, `${what} not found`);

export const ok = (data: unknown, additional: unknown = null) => ({ success: true, data, additional_data: additional });

/** The emulator's records; emulator.ts exposes the same arrays to tests. */
export interface EmulatorStore {
  persons: Row[];
  organizations: Row[];
  deals: Row[];
  leads: (Record<string, unknown> & { id: string })[];
  notes: Row[];
  activities: Row[];
  webhooks: Row[];
  fields: ReturnType<typeof seedFields>;
  /** Pipedrive's search index lags behind writes: a person is found by search this long after it is made. */
  searchLagMs: number;
  /** Person id → when search starts finding it. */
  indexedAt: Map<number, number>;
  seq: { person: number; org: number; deal: number; note: number; activity: number; webhook: number };
}

/** The record lists, which tests read straight off the emulator. */
export const RECORD_LISTS = ['persons', 'organizations', 'deals', 'leads', 'notes', 'activities', 'webhooks'] as const;
export type EmulatorRecords = Pick<EmulatorStore, (typeof RECORD_LISTS)[number]>;

export const recordsOf = (store: EmulatorStore) =>
  Object.fromEntries(RECORD_LISTS.map((key) => [key, store[key]])) as unknown as EmulatorRecords;

/** Back to the seed, in place: the same arrays stay exposed. */
export function clearStore(store: EmulatorStore): void {
  for (const key of RECORD_LISTS) store[key].length = 0;
  for (const k of Object.keys(store.seq) as (keyof EmulatorStore['seq'])[]) store.seq[k] = 0;
  store.fields = seedFields();
  store.searchLagMs = 0;
  store.indexedAt.clear();
}

export function emptyStore(): EmulatorStore {
  return {
    persons: [],
    organizations: [],
    deals: [],
    leads: [],
    notes: [],
    activities: [],
    webhooks: [],
    fields: seedFields(),
    searchLagMs: 0,
    indexedAt: new Map(),
    seq: { person: 0, org: 0, deal: 0, note: 0, activity: 0, webhook: 0 },
  };
}

export function registerApiRoutes(app: FastifyInstance, store: EmulatorStore): void {
  type Handler = (req: FastifyRequest, reply: FastifyReply) => unknown;
  const v1 = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, handler: Handler) => {
    app.route({ method, url: `/v1${path}`, handler });
    app.route({ method, url: `/api/v1${path}`, handler });
  };
  const v2 = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, handler: Handler) =>
    app.route({ method, url: `/api/v2${path}`, handler });
  const bodyOf = (req: FastifyRequest) => {
    const b = req.body;
    if (!b || typeof b !== 'object' || Array.isArray(b)) throw bad('Request body must be a JSON object');
    return b as Record<string, unknown>;
  };
  const q = (req: FastifyRequest) => req.query as Record<string, string | undefined>;
  const nowV2 = () => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
  const nowV1 = () => new Date().toISOString().slice(0, 19).replace('T', ' ');
  const idParam = (req: FastifyRequest) => Number((req.params as { id: string }).id);

  /** v1 pagination over a list. */
  const pageV1 = (list: unknown[], req: FastifyRequest) => {
    const start = Number(q(req).start ?? 0);
    const limit = Math.min(500, Number(q(req).limit ?? 100));
    const page = list.slice(start, start + limit);
    const more = start + limit < list.length;
    return ok(page, {
      pagination: { start, limit, more_items_in_collection: more, ...(more ? { next_start: start + limit } : {}) },
    });
  };
  /** v2 cursor pagination (the cursor is the offset, base64). */
  const pageV2 = (list: unknown[], req: FastifyRequest) => {
    const offset = q(req).cursor ? Number(Buffer.from(q(req).cursor!, 'base64url').toString()) : 0;
    const limit = Math.min(500, Number(q(req).limit ?? 100));
    const page = list.slice(offset, offset + limit);
    const next = offset + limit < list.length ? Buffer.from(String(offset + limit)).toString('base64url') : null;
    return ok(page, { next_cursor: next });
  };

  const userIds = () => new Set<number>(PIPEDRIVE_SEED.users.map((u) => u.id));
  const checkOwner = (v: unknown) => {
    if (v !== undefined && !userIds().has(Number(v))) throw bad(`Owner ${String(v)} not found`);
  };
  const personById = (id: unknown) => store.persons.find((p) => p.id === Number(id));
  const orgById = (id: unknown) => store.organizations.find((o) => o.id === Number(id));

  /** Custom values checked as Pipedrive would: the key exists, the value fits the field's type. */
  function checkCustom(list: Field[], values: Record<string, unknown>) {
    for (const [key, value] of Object.entries(values)) {
      const field = list.find((f) => f.key === key);
      if (!field) throw bad(`Unknown custom field ${key}`);
      const ids = new Set((field.options ?? []).map((o) => o.id));
      const fits =
        value === null ||
        (field.field_type === 'enum' && typeof value === 'number' && ids.has(value)) ||
        (field.field_type === 'set' &&
          Array.isArray(value) &&
          value.every((v) => typeof v === 'number' && ids.has(v))) ||
        (['double', 'monetary', 'int'].includes(field.field_type) && typeof value === 'number') ||
        (field.field_type === 'date' && typeof value === 'string' && DATE.test(value)) ||
        (['varchar', 'text', 'phone', 'address'].includes(field.field_type) && typeof value === 'string');
      if (!fits) throw bad(`Invalid value for field "${field.name}" (${field.field_type})`);
    }
  }

  const contacts = (v: unknown, what: string) => {
    if (v === undefined) return [];
    if (
      !Array.isArray(v) ||
      v.some((x) => !x || typeof x !== 'object' || typeof (x as { value?: unknown }).value !== 'string')
    ) {
      throw bad(`${what} must be an array of objects with a value`);
    }
    return (v as { value: string; primary?: boolean; label?: string }[]).map((x, i) => ({
      value: x.value,
      primary: x.primary ?? i === 0,
      label: x.label ?? 'work',
    }));
  };

  // ---- v1: users, activity types, fields ----

  const users = () =>
    PIPEDRIVE_SEED.users.map((u, i) => ({
      ...u,
      active_flag: true,
      is_admin: i === 0,
      is_you: i === 0,
      default_currency: 'UAH',
    }));
  v1('GET', '/users', async (req) => pageV1(users(), req));
  v1('GET', '/users/me', async () => ok({ ...users()[0], company_domain: 'acme' }));
  v1('GET', '/activityTypes', async () =>
    ok(
      PIPEDRIVE_SEED.activityTypes.map((t, i) => ({
        ...t,
        icon_key: t.key_string,
        active_flag: true,
        is_custom_flag: false,
        order_nr: i + 1,
      })),
    ),
  );
  for (const list of ['dealFields', 'personFields', 'organizationFields'] as const) {
    v1('GET', `/${list}`, async (req) => pageV1(store.fields[list], req));
    v2('GET', `/${list}`, async (req) =>
      pageV2(
        store.fields[list].map((f) => ({
          field_code: f.key,
          field_name: f.name,
          field_type: f.field_type,
          is_custom_field: f.edit_flag,
          options: f.options,
        })),
        req,
      ),
    );
  }
  v1('GET', '/leadFields', async (req) => pageV1(store.fields.dealFields, req));

  // ---- v2: pipelines, stages ----

  v2('GET', '/pipelines', async (req) =>
    pageV2(
      PIPEDRIVE_SEED.pipelines.map((p, i) => ({ id: p.id, name: p.name, order_nr: i + 1, is_deleted: false })),
      req,
    ),
  );
  v2('GET', '/stages', async (req) => {
    const pid = q(req).pipeline_id;
    const stages = PIPEDRIVE_SEED.pipelines.flatMap((p) =>
      p.stages.map((s, i) => ({ id: s.id, name: s.name, order_nr: i + 1, pipeline_id: p.id, is_deleted: false })),
    );
    return pageV2(pid ? stages.filter((s) => s.pipeline_id === Number(pid)) : stages, req);
  });

  // ---- v2: persons, organizations ----

  v2('POST', '/persons', async (req) => {
    const b = bodyOf(req);
    if (typeof b.name !== 'string' || !b.name.trim()) throw bad('Name must be given');
    checkOwner(b.owner_id);
    if (b.org_id !== undefined && !orgById(b.org_id)) throw bad('Organization not found');
    const custom = (b.custom_fields ?? {}) as Record<string, unknown>;
    checkCustom(store.fields.personFields, custom);
    const person: Row = {
      id: ++store.seq.person,
      name: b.name,
      owner_id: b.owner_id ?? PIPEDRIVE_SEED.users[0].id,
      org_id: b.org_id ?? null,
      emails: contacts(b.emails, 'emails'),
      phones: contacts(b.phones, 'phones'),
      custom_fields: custom,
      add_time: nowV2(),
      update_time: nowV2(),
      visible_to: 3,
      is_deleted: false,
    };
    store.persons.push(person);
    store.indexedAt.set(person.id, Date.now() + store.searchLagMs);
    return ok(person);
  });
  v2('GET', '/persons', async (req) => pageV2(store.persons, req));
  v2('GET', '/persons/search', async (req) => {
    const { term = '', fields: searchFields = 'email,phone,name', exact_match } = q(req);
    const exact = exact_match === 'true' || exact_match === '1';
    if (term.length < (exact ? 1 : 2)) throw bad('Search term must be at least 2 characters long');
    const wanted = new Set(searchFields.split(','));
    const hit = (v: string) =>
      exact ? v.toLowerCase() === term.toLowerCase() : v.toLowerCase().includes(term.toLowerCase());
    const items = store.persons
      .filter((p) => (store.indexedAt.get(p.id) ?? 0) <= Date.now())
      .filter((p) => {
        const emails = (p.emails as { value: string }[]).map((e) => e.value);
        const phones = (p.phones as { value: string }[]).map((e) => e.value);
        return (
          (wanted.has('email') && emails.some(hit)) ||
          (wanted.has('phone') && phones.some(hit)) ||
          (wanted.has('name') && hit(String(p.name)))
        );
      })
      .map((p) => ({
        result_score: 1,
        item: {
          id: p.id,
          type: 'person',
          name: p.name,
          phones: (p.phones as { value: string }[]).map((e) => e.value),
          emails: (p.emails as { value: string }[]).map((e) => e.value),
          visible_to: 3,
          owner: { id: p.owner_id },
          organization: p.org_id ? { id: p.org_id, name: orgById(p.org_id)?.name ?? null, address: null } : null,
          custom_fields: [],
          notes: [],
        },
      }));
    const limit = Number(q(req).limit ?? 100);
    return ok({ items: items.slice(0, limit) }, { next_cursor: null });
  });
  v2('GET', '/persons/:id', async (req) => {
    const p = personById(idParam(req));
    if (!p) throw notFound('Person');
    return ok(p);
  });
  v2('PATCH', '/persons/:id', async (req) => {
    const p = personById(idParam(req));
    if (!p) throw notFound('Person');
    const b = bodyOf(req);
    checkOwner(b.owner_id);
    if (b.custom_fields) checkCustom(store.fields.personFields, b.custom_fields as Record<string, unknown>);
    if (b.name !== undefined) p.name = b.name;
    if (b.owner_id !== undefined) p.owner_id = b.owner_id;
    if (b.org_id !== undefined) p.org_id = b.org_id;
    if (b.emails !== undefined) p.emails = contacts(b.emails, 'emails');
    if (b.phones !== undefined) p.phones = contacts(b.phones, 'phones');
    if (b.custom_fields) p.custom_fields = { ...(p.custom_fields as object), ...(b.custom_fields as object) };
    p.update_time = nowV2();
    return ok(p);
  });

  v2('POST', '/organizations', async (req) => {
    const b = bodyOf(req);
    if (typeof b.name !== 'string' || !b.name.trim()) throw bad('Name must be given');
    checkOwner(b.owner_id);
    const custom = (b.custom_fields ?? {}) as Record<string, unknown>;
    checkCustom(store.fields.organizationFields, custom);
    const org: Row = {
      id: ++store.seq.org,
      name: b.name,
      owner_id: b.owner_id ?? PIPEDRIVE_SEED.users[0].id,
      address: b.address ?? null,
      custom_fields: custom,
      add_time: nowV2(),
    };
    store.organizations.push(org);
    return ok(org);
  });
  v2('GET', '/organizations/search', async (req) => {
    const { term = '', exact_match } = q(req);
    const exact = exact_match === 'true' || exact_match === '1';
    const items = store.organizations
      .filter((o) =>
        exact
          ? String(o.name).toLowerCase() === term.toLowerCase()
          : String(o.name).toLowerCase().includes(term.toLowerCase()),
      )
      .map((o) => ({ result_score: 1, item: { id: o.id, type: 'organization', name: o.name, address: null } }));
    return ok({ items }, { next_cursor: null });
  });

  // ---- v2: deals, activities ----

  const checkPipelineStage = (pipelineId: unknown, stageId: unknown) => {
    const pipeline =
      pipelineId === undefined ? undefined : PIPEDRIVE_SEED.pipelines.find((p) => p.id === Number(pipelineId));
    if (pipelineId !== undefined && !pipeline) throw bad(`Pipeline ${String(pipelineId)} not found`);
    if (stageId === undefined)
      return { pipeline_id: pipeline?.id ?? 1, stage_id: (pipeline ?? PIPEDRIVE_SEED.pipelines[0]).stages[0].id };
    const owner = PIPEDRIVE_SEED.pipelines.find((p) => p.stages.some((s) => s.id === Number(stageId)));
    if (!owner) throw bad(`Stage ${String(stageId)} not found`);
    if (pipeline && owner.id !== pipeline.id) throw bad('Stage does not belong to the pipeline');
    return { pipeline_id: owner.id, stage_id: Number(stageId) };
  };

  v2('POST', '/deals', async (req) => {
    const b = bodyOf(req);
    if (typeof b.title !== 'string' || !b.title.trim()) throw bad('Title must be given');
    checkOwner(b.owner_id);
    if (b.person_id !== undefined && !personById(b.person_id)) throw bad('Person not found');
    if (b.org_id !== undefined && !orgById(b.org_id)) throw bad('Organization not found');
    if (b.organization_id !== undefined) throw bad('Unknown field organization_id (use org_id)');
    const custom = (b.custom_fields ?? {}) as Record<string, unknown>;
    checkCustom(store.fields.dealFields, custom);
    if (b.value !== undefined && typeof b.value !== 'number') throw bad('value must be a number');
    if (b.expected_close_date !== undefined && !DATE.test(String(b.expected_close_date)))
      throw bad('Invalid expected_close_date');
    const deal: Row = {
      ...b,
      id: ++store.seq.deal,
      ...checkPipelineStage(b.pipeline_id, b.stage_id),
      owner_id: b.owner_id ?? PIPEDRIVE_SEED.users[0].id,
      person_id: b.person_id ?? null,
      org_id: b.org_id ?? null,
      custom_fields: custom,
      status: b.status ?? 'open',
      origin: 'API',
      origin_id: b.origin_id ?? null,
      add_time: nowV2(),
      update_time: nowV2(),
      is_deleted: false,
    };
    store.deals.push(deal);
    return ok(deal);
  });
  v2('GET', '/deals', async (req) => {
    const pid = q(req).person_id;
    return pageV2(pid ? store.deals.filter((d) => d.person_id === Number(pid)) : store.deals, req);
  });
  v2('GET', '/deals/:id', async (req) => {
    const d = store.deals.find((x) => x.id === idParam(req));
    if (!d) throw notFound('Deal');
    return ok(d);
  });

  v2('POST', '/activities', async (req) => {
    const b = bodyOf(req);
    if (!PIPEDRIVE_SEED.activityTypes.some((t) => t.key_string === b.type))
      throw bad(`Activity type ${String(b.type)} not found`);
    checkOwner(b.owner_id);
    if (b.due_date !== undefined && !DATE.test(String(b.due_date))) throw bad('Invalid due_date');
    if (b.due_time !== undefined && !/^\d{2}:\d{2}$/.test(String(b.due_time))) throw bad('Invalid due_time');
    if (b.deal_id !== undefined && !store.deals.some((d) => d.id === Number(b.deal_id))) throw bad('Deal not found');
    if (b.lead_id !== undefined && !store.leads.some((l) => l.id === b.lead_id)) throw bad('Lead not found');
    if (b.person_id !== undefined && !personById(b.person_id)) throw bad('Person not found');
    const activity: Row = { ...b, id: ++store.seq.activity, done: b.done ?? false, add_time: nowV2() };
    store.activities.push(activity);
    return ok(activity);
  });

  // ---- v1: leads, notes, webhooks ----

  v1('POST', '/leads', async (req) => {
    const b = bodyOf(req);
    if (typeof b.title !== 'string' || !b.title.trim()) throw bad('Title must be given');
    if (b.org_id !== undefined) throw bad('Unknown field org_id (use organization_id)');
    if (b.person_id === undefined && b.organization_id === undefined) {
      throw bad('A lead must be linked to a person or an organization');
    }
    if (b.person_id !== undefined && !personById(b.person_id)) throw bad('Person not found');
    if (b.organization_id !== undefined && !orgById(b.organization_id)) throw bad('Organization not found');
    checkOwner(b.owner_id);
    const custom = Object.fromEntries(Object.entries(b).filter(([k]) => HEX40.test(k)));
    checkCustom(store.fields.dealFields, custom);
    if (b.expected_close_date !== undefined && !DATE.test(String(b.expected_close_date)))
      throw bad('Invalid expected_close_date');
    const lead = {
      ...b,
      id: randomUUID(),
      owner_id: b.owner_id ?? PIPEDRIVE_SEED.users[0].id,
      creator_id: PIPEDRIVE_SEED.users[0].id,
      person_id: b.person_id ?? null,
      organization_id: b.organization_id ?? null,
      source_name: 'API',
      origin: 'API',
      origin_id: b.origin_id ?? null,
      is_archived: false,
      was_seen: false,
      value: b.value ?? null,
      add_time: nowV2(),
      update_time: nowV2(),
    };
    store.leads.push(lead);
    return ok(lead);
  });
  v1('GET', '/leads', async (req) => {
    const pid = q(req).person_id;
    return pageV1(pid ? store.leads.filter((l) => l.person_id === Number(pid)) : store.leads, req);
  });
  v1('GET', '/leads/:id', async (req) => {
    const lead = store.leads.find((l) => l.id === (req.params as { id: string }).id);
    if (!lead) throw notFound('Lead');
    return ok(lead);
  });

  v1('POST', '/notes', async (req) => {
    const b = bodyOf(req);
    if (typeof b.content !== 'string' || !b.content.trim()) throw bad('Content must be given');
    const linked =
      (b.lead_id !== undefined && store.leads.some((l) => l.id === b.lead_id)) ||
      (b.deal_id !== undefined && store.deals.some((d) => d.id === Number(b.deal_id))) ||
      (b.person_id !== undefined && !!personById(b.person_id)) ||
      (b.org_id !== undefined && !!orgById(b.org_id));
    if (!linked) throw bad('A note must be linked to an existing lead, deal, person or organization');
    const note: Row = { ...b, id: ++store.seq.note, add_time: nowV1(), user_id: PIPEDRIVE_SEED.users[0].id };
    store.notes.push(note);
    return ok(note);
  });

  v1('GET', '/webhooks', async () => ok(store.webhooks));
  v1('POST', '/webhooks', async (req, reply) => {
    const b = bodyOf(req);
    const errors: Record<string, string> = {};
    if (typeof b.subscription_url !== 'string' || !/^https?:\/\//.test(b.subscription_url)) {
      errors.subscription_url = 'subscription_url must be a valid URL';
    }
    if (!WEBHOOK_ACTIONS.has(String(b.event_action))) errors.event_action = 'Invalid event_action';
    if (!WEBHOOK_OBJECTS.has(String(b.event_object))) errors.event_object = 'Invalid event_object';
    if (Object.keys(errors).length) {
      return reply.code(400).send({ success: false, error: Object.values(errors).join('; '), errors });
    }
    if (store.webhooks.length >= 40) throw bad('Webhooks limit reached (40)');
    const hook: Row = {
      id: ++store.seq.webhook,
      company_id: 1,
      owner_id: PIPEDRIVE_SEED.users[0].id,
      user_id: PIPEDRIVE_SEED.users[0].id,
      event_action: b.event_action,
      event_object: b.event_object,
      subscription_url: b.subscription_url,
      name: b.name ?? null,
      version: b.version ?? '2.0',
      is_active: 1,
      add_time: nowV1(),
      type: 'general',
    };
    store.webhooks.push(hook);
    return reply.code(201).send(ok(hook));
  });
  v1('DELETE', '/webhooks/:id', async (req) => {
    const i = store.webhooks.findIndex((w) => w.id === idParam(req));
    if (i < 0) throw notFound('Webhook');
    store.webhooks.splice(i, 1);
    return ok({ id: idParam(req) });
  });
}
