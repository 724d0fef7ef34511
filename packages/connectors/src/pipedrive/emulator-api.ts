// What the Pipedrive emulator's data API routes share: its {success, data, additional_data} envelope,
// errors that the gate's error handler turns into Pipedrive's failure body, v1 and v2 paging, and the
// checks several resources make (owners, custom values, linked persons and organizations).
// The routes sit behind the gate (emulator-gate.ts: log, latency, faults, auth, burst limit).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type EmulatorStore, type Field, PIPEDRIVE_SEED, type V1PagingShape } from './emulator-state';

export const DATE = /^\d{4}-\d{2}-\d{2}$/;

export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}
export const bad = (message: string) => new ApiFailure(400, message);

/**
 * v2's refusal of a body parameter its schema does not have (seen for PATCH /api/v2/deals in
 * pipedrive/client-nodejs#651): 400, `code: ERR_SCHEMA_VALIDATION_FAILED`, every offender named.
 */
export class SchemaFailure extends ApiFailure {
  readonly code = 'ERR_SCHEMA_VALIDATION_FAILED';
}

/** Refuses a v2 body with keys outside `allowed` (the official client's request model), as Pipedrive does. */
export function onlyParams(body: Record<string, unknown>, allowed: ReadonlySet<string>): void {
  const unknown = Object.keys(body).filter((k) => !allowed.has(k));
  if (!unknown.length) return;
  throw new SchemaFailure(
    400,
    `Validation failed: ${unknown.map((k) => `${k}: Parameter '${k}' is not allowed for this request`).join('; ')}`,
  );
}
export const notFound = (what: string) => new ApiFailure(404, `${what} not found`);

export const ok = (data: unknown, additional: unknown = null) => ({ success: true, data, additional_data: additional });

type Handler = (req: FastifyRequest, reply: FastifyReply) => unknown;
type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** One emulator's routes and records, handed to each resource's register function. */
export interface Api {
  store: EmulatorStore;
  /** A v1 offset-paged list answer, in the shape the emulator is set to (setV1Paging). */
  pageV1(list: unknown[], req: FastifyRequest): ReturnType<typeof ok>;
  /** A v1 route, served under /v1 and /api/v1 as Pipedrive does. */
  v1(method: Method, path: string, handler: Handler): void;
  v2(method: Method, path: string, handler: Handler): void;
  personById(id: unknown): EmulatorStore['persons'][number] | undefined;
  orgById(id: unknown): EmulatorStore['organizations'][number] | undefined;
}

export function createApi(app: FastifyInstance, store: EmulatorStore): Api {
  return {
    store,
    pageV1: (list, req) => pageV1(list, req, store.v1Paging),
    v1(method, path, handler) {
      app.route({ method, url: `/v1${path}`, handler });
      app.route({ method, url: `/api/v1${path}`, handler });
    },
    v2(method, path, handler) {
      app.route({ method, url: `/api/v2${path}`, handler });
    },
    personById: (id) => store.persons.find((p) => p.id === Number(id)),
    orgById: (id) => store.organizations.find((o) => o.id === Number(id)),
  };
}

export const bodyOf = (req: FastifyRequest) => {
  const b = req.body;
  if (!b || typeof b !== 'object' || Array.isArray(b)) throw bad('Request body must be a JSON object');
  return b as Record<string, unknown>;
};
export const q = (req: FastifyRequest) => req.query as Record<string, string | undefined>;
export const nowV2 = () => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
export const nowV1 = () => new Date().toISOString().slice(0, 19).replace('T', ' ');
export const idParam = (req: FastifyRequest) => Number((req.params as { id: string }).id);

/** v1 offset pagination over a list, in the emulator's current shape. */
export const pageV1 = (list: unknown[], req: FastifyRequest, shape: V1PagingShape) => {
  const start = Math.max(0, Number(q(req).start ?? 0) || 0);
  const limit = Math.min(500, Math.max(1, Number(q(req).limit ?? 100) || 100));
  const page = list.slice(start, start + limit);
  const more = start + limit < list.length;
  if (shape === 'flat') return ok(page, { start, limit, more_items_in_collection: more });
  return ok(page, {
    pagination: { start, limit, more_items_in_collection: more, ...(more ? { next_start: start + limit } : {}) },
  });
};
/** v2 cursor pagination (the cursor is the offset, base64). */
export const pageV2 = (list: unknown[], req: FastifyRequest) => {
  const offset = q(req).cursor ? Number(Buffer.from(q(req).cursor!, 'base64url').toString()) : 0;
  const limit = Math.min(500, Number(q(req).limit ?? 100));
  const page = list.slice(offset, offset + limit);
  const next = offset + limit < list.length ? Buffer.from(String(offset + limit)).toString('base64url') : null;
  return ok(page, { next_cursor: next });
};

const userIds = () => new Set<number>(PIPEDRIVE_SEED.users.map((u) => u.id));
export const checkOwner = (v: unknown) => {
  if (v !== undefined && !userIds().has(Number(v))) throw bad(`Owner ${String(v)} not found`);
};

/** Custom values checked as Pipedrive would: the key exists, the value fits the field's type. */
export function checkCustom(list: Field[], values: Record<string, unknown>) {
  for (const [key, value] of Object.entries(values)) {
    const field = list.find((f) => f.key === key);
    if (!field) throw bad(`Unknown custom field ${key}`);
    const ids = new Set((field.options ?? []).map((o) => o.id));
    const fits =
      value === null ||
      (field.field_type === 'enum' && typeof value === 'number' && ids.has(value)) ||
      (field.field_type === 'set' && Array.isArray(value) && value.every((v) => typeof v === 'number' && ids.has(v))) ||
      (['double', 'monetary', 'int'].includes(field.field_type) && typeof value === 'number') ||
      (field.field_type === 'date' && typeof value === 'string' && DATE.test(value)) ||
      (['varchar', 'text', 'phone', 'address'].includes(field.field_type) && typeof value === 'string');
    if (!fits) throw bad(`Invalid value for field "${field.name}" (${field.field_type})`);
  }
}
