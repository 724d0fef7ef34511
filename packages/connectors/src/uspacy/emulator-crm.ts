// The Uspacy emulator's data API, as the connector and the SDKs call it: fields, funnels and kanban
// stages of leads and deals, create/read/update/delete and filtered lists of leads, deals and
// contacts, a contact's related leads and deals, users, and comments on a record. A refused write
// answers 422 in Laravel's shape ({message, errors: {field: [...]}}).
import { ownValue, setOwn } from '@leadrelay/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  type EntityName,
  type SeedField,
  type StoredRecord,
  USPACY_SEED,
  type UspacyRuntime,
  type UspacyStore,
} from './emulator-state';

const ENTITIES: EntityName[] = ['leads', 'deals', 'contacts'];
const isEntity = (e: string): e is EntityName => (ENTITIES as string[]).includes(e);
const FUNNEL_ENTITIES = ['leads', 'deals'] as const;
type FunnelEntity = (typeof FUNNEL_ENTITIES)[number];
const hasFunnels = (e: EntityName): e is FunnelEntity => e !== 'contacts';

export class Invalid extends Error {
  constructor(readonly errors: Record<string, string[]>) {
    super('The given data was invalid.');
  }
}

const notFound = (reply: FastifyReply) => reply.code(404).send({ message: 'Not Found' });
const now = () => Math.floor(Date.now() / 1000);

function page<T>(items: T[], query: Record<string, string>) {
  const list = query.list === 'all' ? Math.max(items.length, 1) : Math.min(Math.max(Number(query.list) || 20, 1), 500);
  const current = Math.max(Number(query.page) || 1, 1);
  const last = Math.max(Math.ceil(items.length / list), 1);
  return {
    data: items.slice((current - 1) * list, current * list),
    meta: { total: items.length, page: current, list, per_page: list, last_page: last },
  };
}

/** A record field's text for a filter: strings, numbers, and the values of [{value}] lists. */
function texts(value: unknown): string[] {
  if (typeof value === 'string' || typeof value === 'number') return [String(value)];
  if (Array.isArray(value))
    return value.flatMap((v) => (v && typeof v === 'object' ? texts((v as { value?: unknown }).value) : texts(v)));
  return [];
}

const SKIP_QUERY = new Set(['page', 'list', 'q', 'sort_by', 'show']);

/** ?q= searches every field; ?{code}= a field's text (contains, case-insensitive), as Uspacy's lists filter. */
function filtered(records: StoredRecord[], query: Record<string, string>): StoredRecord[] {
  const conditions = Object.entries(query).filter(([k]) => !SKIP_QUERY.has(k) && !k.startsWith('sort_by'));
  const q = query.q?.trim().toLowerCase();
  return records.filter((r) => {
    if (q && !Object.values(r).some((v) => texts(v).some((t) => t.toLowerCase().includes(q)))) return false;
    return conditions.every(([code, want]) =>
      texts(r[code]).some((t) => t.toLowerCase().includes(want.trim().toLowerCase())),
    );
  });
}

function funnelsOf(entity: FunnelEntity) {
  return USPACY_SEED.funnels[entity];
}

/** Checks a body against the entity's fields; answers the record's values (defaults filled in). */
function validate(store: UspacyStore, entity: EntityName, body: Record<string, unknown>, isNew: boolean) {
  const errors: Record<string, string[]> = {};
  const fail = (code: string, text: string) => {
    setOwn(errors, code, [...((ownValue(errors, code) as string[] | undefined) ?? []), text]);
  };
  const fields = new Map<string, SeedField>(USPACY_SEED.fields[entity].map((f) => [f.code, f]));
  const out: Record<string, unknown> = { ...body };
  if (isNew || 'title' in body) {
    if (typeof body.title !== 'string' || !body.title.trim()) fail('title', 'The title field is required.');
  }
  if (body.owner !== undefined) {
    const owner = USPACY_SEED.users.find((u) => u.id === body.owner);
    if (!owner?.active) fail('owner', 'The selected owner is invalid.');
  }
  if (hasFunnels(entity) && (isNew || 'funnel_id' in body || 'kanban_stage_id' in body)) {
    const funnels = funnelsOf(entity);
    const funnel =
      body.funnel_id === undefined ? funnels.find((f) => f.default) : funnels.find((f) => f.id === body.funnel_id);
    if (!funnel) fail('funnel_id', 'The selected funnel id is invalid.');
    else {
      out.funnel_id = funnel.id;
      const stage =
        body.kanban_stage_id === undefined
          ? funnel.stages.find((s) => !s.system_stage)
          : funnel.stages.find((s) => s.id === body.kanban_stage_id);
      if (!stage) fail('kanban_stage_id', 'The selected kanban stage id is invalid.');
      else {
        out.kanban_stage_id = stage.id;
        out.kanban_status = stage.system_stage ? stage.stage_code : 'IN_WORK';
      }
    }
  }
  if (body.contacts !== undefined) {
    const ids = Array.isArray(body.contacts) ? body.contacts : [body.contacts];
    if (!ids.every((id) => store.contacts.some((c) => c.id === id)))
      fail('contacts', 'The selected contacts are invalid.');
  }
  for (const [code, value] of Object.entries(body)) {
    const field = fields.get(code);
    if (!field || value === null || value === undefined) continue;
    if (field.type === 'list') {
      const values = Array.isArray(value) ? value : [value];
      if (!field.multiple && Array.isArray(value)) fail(code, `The ${code} must be a single value.`);
      if (!values.every((v) => field.values?.some((o) => o.value === v)))
        fail(code, `The selected ${code} is invalid.`);
    } else if (field.type === 'integer' && !Number.isInteger(value)) fail(code, `The ${code} must be an integer.`);
    else if (field.type === 'float' && typeof value !== 'number') fail(code, `The ${code} must be a number.`);
    else if (field.type === 'boolean' && typeof value !== 'boolean')
      fail(code, `The ${code} field must be true or false.`);
    else if (field.type === 'datetime' && !Number.isInteger(value)) fail(code, `The ${code} must be a timestamp.`);
    else if ((field.type === 'phone' || field.type === 'email') && !Array.isArray(value))
      fail(code, `The ${code} must be an array.`);
    else if (
      field.type === 'money' &&
      (typeof value !== 'object' || typeof (value as { value?: unknown }).value !== 'string')
    )
      fail(code, `The ${code} must be an amount with a currency.`);
  }
  if (Object.keys(errors).length) throw new Invalid(errors);
  return out;
}

export function registerCrmRoutes(
  app: FastifyInstance,
  rt: UspacyRuntime,
  actorOf: (req: FastifyRequest) => number,
): void {
  const { store } = rt;
  type P = { entity: string; id?: string; funnelId?: string };

  app.get('/crm/v1/entities/:entity/fields', async (req, reply) => {
    const { entity } = req.params as P;
    if (!isEntity(entity)) return notFound(reply);
    return { data: USPACY_SEED.fields[entity] };
  });

  app.get('/crm/v1/entities/:entity/funnel', async (req, reply) => {
    const { entity } = req.params as P;
    if (!isEntity(entity) || !hasFunnels(entity)) return notFound(reply);
    return funnelsOf(entity).map(({ stages, ...f }) => ({
      ...f,
      tariff_limited: false,
      ...(rt.funnelsWithStages ? { stages } : {}),
    }));
  });

  app.get('/crm/v1/entities/:entity/kanban/stage', async (req, reply) => {
    const { entity } = req.params as P;
    if (!isEntity(entity) || !hasFunnels(entity)) return notFound(reply);
    const funnelId = Number((req.query as Record<string, string>).funnel_id);
    const stages = funnelsOf(entity).flatMap((f) => f.stages);
    return {
      data: Number.isInteger(funnelId) && funnelId > 0 ? stages.filter((s) => s.funnel_id === funnelId) : stages,
    };
  });

  app.get('/crm/v1/entities/:entity', async (req, reply) => {
    const { entity } = req.params as P;
    if (!isEntity(entity)) return notFound(reply);
    const query = req.query as Record<string, string>;
    return page(filtered(store[entity], query), query);
  });

  app.post('/crm/v1/entities/:entity', async (req, reply) => {
    const { entity } = req.params as P;
    if (!isEntity(entity)) return notFound(reply);
    const body = req.body;
    if (!body || typeof body !== 'object' || Array.isArray(body))
      throw new Invalid({ body: ['A JSON object is required.'] });
    const values = validate(store, entity, body as Record<string, unknown>, true);
    const actor = actorOf(req);
    const record: StoredRecord = {
      ...values,
      id: store.nextId++,
      owner: values.owner ?? actor,
      created_by: actor,
      created_at: now(),
      updated_at: now(),
    };
    store[entity].push(record);
    return reply.code(201).send(record);
  });

  app.get('/crm/v1/entities/:entity/:id', async (req, reply) => {
    const { entity, id } = req.params as P;
    if (!isEntity(entity)) return notFound(reply);
    const record = store[entity].find((r) => r.id === Number(id));
    return record ?? notFound(reply);
  });

  app.patch('/crm/v1/entities/:entity/:id', async (req, reply) => {
    const { entity, id } = req.params as P;
    if (!isEntity(entity)) return notFound(reply);
    const record = store[entity].find((r) => r.id === Number(id));
    if (!record) return notFound(reply);
    const values = validate(store, entity, (req.body ?? {}) as Record<string, unknown>, false);
    Object.assign(record, values, { id: record.id, updated_at: now(), changed_by: actorOf(req) });
    return record;
  });

  app.delete('/crm/v1/entities/:entity/:id', async (req, reply) => {
    const { entity, id } = req.params as P;
    if (!isEntity(entity)) return notFound(reply);
    const at = store[entity].findIndex((r) => r.id === Number(id));
    if (at < 0) return notFound(reply);
    store[entity].splice(at, 1);
    return reply.code(204).send();
  });

  app.get('/crm/v1/entities/:entity/:id/related/:related', async (req, reply) => {
    const { entity, id, related } = req.params as P & { related: string };
    if (entity !== 'contacts' || !isEntity(related) || !hasFunnels(related)) return notFound(reply);
    const contactId = Number(id);
    if (!store.contacts.some((c) => c.id === contactId)) return notFound(reply);
    const linked = store[related].filter((r) => Array.isArray(r.contacts) && r.contacts.includes(contactId));
    return page([...linked].reverse(), req.query as Record<string, string>);
  });

  // ---- Users ----

  const userView = (u: (typeof USPACY_SEED.users)[number]) => ({ ...u, roles: u.id === 1 ? ['OWNER'] : ['USER'] });
  app.get('/company/v1/users', async (req) => {
    const query = req.query as Record<string, string>;
    const users = USPACY_SEED.users.filter((u) => u.active || query.show === 'all').map(userView);
    return query.list === 'all' ? users : page(users, query);
  });
  app.get('/company/v1/users/me', async (req) => userView(USPACY_SEED.users.find((u) => u.id === actorOf(req))!));

  // ---- Comments ----

  app.post('/comments/v1/comments', async (req, reply) => {
    const body = (req.body ?? {}) as {
      entityType?: unknown;
      entityId?: unknown;
      authorId?: unknown;
      message?: unknown;
    };
    const errors: Record<string, string[]> = {};
    const entity = { lead: 'leads', deal: 'deals', contact: 'contacts' }[String(body.entityType)] as
      | EntityName
      | undefined;
    if (!entity) errors.entityType = ['The selected entity type is invalid.'];
    else if (!store[entity].some((r) => r.id === body.entityId))
      errors.entityId = ['The selected entity id is invalid.'];
    if (typeof body.message !== 'string' || !body.message.trim()) errors.message = ['The message field is required.'];
    if (body.authorId !== undefined && !USPACY_SEED.users.some((u) => u.id === body.authorId)) {
      errors.authorId = ['The selected author id is invalid.'];
    }
    if (Object.keys(errors).length) throw new Invalid(errors);
    const comment = {
      id: store.nextId++,
      entityType: String(body.entityType),
      entityId: body.entityId as number,
      authorId: (body.authorId as number | undefined) ?? actorOf(req),
      message: body.message as string,
      date: now(),
    };
    store.comments.push(comment);
    return reply.code(201).send(comment);
  });

  app.get('/comments/v1/list_comments', async (req) => {
    const query = req.query as Record<string, string>;
    const items = store.comments.filter(
      (c) => c.entityType === query.entityType && c.entityId === Number(query.entityId),
    );
    return page(items, query);
  });
}
