// Persons (create, list, read, update, search) and organizations (create, search) in the Pipedrive
// emulator (v2). Person search finds a person only once the index has caught up (setSearchLag), as
// Pipedrive's lagging index does.
import {
  type Api,
  bad,
  bodyOf,
  checkCustom,
  checkOwner,
  idParam,
  notFound,
  nowV2,
  ok,
  pageV2,
  q,
} from './emulator-api';
import { PIPEDRIVE_SEED, type Row } from './emulator-state';

/** A person's emails or phones, each with primary (the first by default) and label. */
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

export function registerPersonRoutes(api: Api): void {
  const { store, v2, personById, orgById } = api;
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
}

export function registerOrganizationRoutes(api: Api): void {
  const { store, v2 } = api;
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
}
