// Contacts in the amoCRM emulator: search over the name and custom field values such as phone and
// e-mail (204 when nothing matches, as amoCRM answers) and batch creation; newContact also makes
// leads/complex's embedded contacts.
import type { FastifyInstance } from 'fastify';
import { hal, Invalid, type ValidationError } from './emulator-gate';
import { AMO_SEED, type AmoRuntime, type EmulatedAmoContact } from './emulator-state';
import { checkUser, fieldValues, requestIdOf } from './emulator-validation';

/** Validates a contact now (errors pushed); the returned maker stores it, once the whole batch passed. */
export function newContact(
  rt: AmoRuntime,
  raw: Record<string, unknown>,
  owner: number,
  prefix: string,
  errors: ValidationError[],
) {
  const first = typeof raw.first_name === 'string' ? raw.first_name : '';
  const last = typeof raw.last_name === 'string' ? raw.last_name : '';
  const name = typeof raw.name === 'string' && raw.name ? raw.name : `${first} ${last}`.trim();
  const cf = fieldValues(raw.custom_fields_values, AMO_SEED.contactFields, `${prefix}custom_fields_values`, errors);
  const responsible = checkUser(raw.responsible_user_id, `${prefix}responsible_user_id`, errors) ?? owner;
  return (): EmulatedAmoContact => {
    const c: EmulatedAmoContact = {
      id: 20_000_000 + rt.nextId++,
      name,
      first_name: first,
      last_name: last,
      responsible_user_id: responsible,
      custom_fields_values: cf,
      leadIds: [],
      created_at: Math.floor(Date.now() / 1000),
    };
    rt.contacts.push(c);
    return c;
  };
}

export function registerContactRoutes(app: FastifyInstance, rt: AmoRuntime): void {
  app.get('/api/v4/contacts', async (req, reply) => {
    const q = req.query as { query?: string; limit?: string };
    const needle = String(q.query ?? '')
      .trim()
      .toLowerCase();
    const max = Math.min(250, Number(q.limit ?? 50) || 50);
    const found = rt.contacts
      .filter((c) => {
        if (!needle) return true;
        const haystack = [
          c.name,
          ...(c.custom_fields_values ?? []).flatMap((f) => f.values.map((v) => String(v.value ?? ''))),
        ];
        return haystack.some((h) => h.toLowerCase().includes(needle));
      })
      .slice(0, max);
    if (found.length === 0) return reply.code(204).send();
    return hal(
      rt,
      'contacts',
      found.map((c) => ({ ...c, leadIds: undefined, _embedded: { leads: c.leadIds.map((id) => ({ id })) } })),
      '/api/v4/contacts',
    );
  });

  app.post('/api/v4/contacts', async (req) => {
    const items = Array.isArray(req.body) ? (req.body as Record<string, unknown>[]) : [];
    const makers = items.map((item, i) => {
      const errors: ValidationError[] = [];
      const make = newContact(rt, item, AMO_SEED.users[0].id, '', errors);
      if (errors.length) throw new Invalid(requestIdOf(item, i), errors);
      return { make, requestId: requestIdOf(item, i) };
    });
    const made = makers.map(({ make, requestId }) => ({ id: make().id, request_id: requestId }));
    return hal(rt, 'contacts', made, '/api/v4/contacts');
  });
}
