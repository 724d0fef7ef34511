// Leads in the amoCRM emulator: leads/complex (a lead with its tags and one embedded contact, at most
// 50 per call, all or nothing), reading a lead back (204 when unknown, as amoCRM), and its notes.
import type { FastifyInstance } from 'fastify';
import { newContact } from './emulator-contacts';
import { hal, Invalid, problem, type ValidationError } from './emulator-gate';
import {
  AMO_SEED,
  type AmoRuntime,
  type EmulatedAmoContact,
  type EmulatedAmoLead,
  type EmulatedAmoNote,
} from './emulator-state';
import { checkUser, fieldValues, placement, requestIdOf } from './emulator-validation';

const MAX_COMPLEX = 50;

/** The tag of that name, made on first use (amoCRM reuses tags by name). */
function tagOf(rt: AmoRuntime, name: string) {
  const key = name.trim();
  let id = rt.tags.get(key);
  if (id === undefined) {
    id = 40_000 + rt.nextId++;
    rt.tags.set(key, id);
  }
  return { id, name: key };
}

export function registerLeadRoutes(app: FastifyInstance, rt: AmoRuntime): void {
  app.post('/api/v4/leads/complex', async (req, reply) => {
    if (!Array.isArray(req.body) || req.body.length === 0) {
      throw new Invalid('0', [{ code: 'InvalidType', path: '', detail: 'This value should be a non-empty array.' }]);
    }
    if (req.body.length > MAX_COMPLEX) {
      return reply
        .code(400)
        .type('application/problem+json')
        .send(problem(400, 'Bad Request', `No more than ${MAX_COMPLEX} leads per request`));
    }
    // Validate everything first: a refused batch writes nothing.
    const plans = (req.body as Record<string, unknown>[]).map((item, i) => {
      const requestId = requestIdOf(item, i);
      const errors: ValidationError[] = [];
      const at = placement(item, errors);
      const owner = checkUser(item.responsible_user_id, 'responsible_user_id', errors) ?? AMO_SEED.users[0].id;
      const cf = fieldValues(item.custom_fields_values, rt.leadFields, 'custom_fields_values', errors);
      const embedded = (item._embedded ?? {}) as {
        tags?: { name?: string; id?: number }[];
        contacts?: Record<string, unknown>[];
      };
      const contactList = embedded.contacts ?? [];
      if (contactList.length > 1) {
        errors.push({ code: 'TooMany', path: '_embedded.contacts', detail: 'Only one contact per lead.' });
      }
      let contact: (() => EmulatedAmoContact) | undefined;
      const given = contactList[0];
      if (given && given.id !== undefined) {
        const existing = rt.contacts.find((c) => c.id === given.id);
        if (!existing) {
          errors.push({ code: 'NotFound', path: '_embedded.contacts.0.id', detail: 'Contact not found.' });
        } else contact = () => existing;
      } else if (given) {
        contact = newContact(rt, given, owner, '_embedded.contacts.0.', errors);
      }
      if (errors.length || !at) throw new Invalid(requestId, errors);
      const tagList = (embedded.tags ?? []).filter((t) => typeof t.name === 'string' && t.name.trim());
      return { item, requestId, at, owner, cf, contact, tagList };
    });
    return plans.map(({ item, requestId, at, owner, cf, contact, tagList }) => {
      const lead: EmulatedAmoLead = {
        id: 10_000_000 + rt.nextId++,
        name: typeof item.name === 'string' ? item.name : '',
        price: typeof item.price === 'number' ? item.price : 0,
        ...at,
        responsible_user_id: owner,
        custom_fields_values: cf,
        tags: tagList.map((t) => tagOf(rt, t.name!)),
        contactIds: [],
        created_at: Math.floor(Date.now() / 1000),
      };
      const c = contact?.();
      if (c) {
        lead.contactIds.push(c.id);
        c.leadIds.push(lead.id);
      }
      rt.leads.push(lead);
      return { id: lead.id, contact_id: c?.id ?? null, company_id: null, request_id: [requestId], merged: false };
    });
  });

  // The lead list with `query`: a substring search over the lead's filled fields (its name and its
  // custom field values), newest first, at most `limit` (≤ 250); 204 when nothing matches, as amoCRM.
  app.get('/api/v4/leads', async (req, reply) => {
    const q = req.query as Record<string, string | undefined>;
    const limit = Math.min(250, Math.max(1, Number(q.limit) || 50));
    const query = q.query?.trim().toLowerCase();
    const filled = (l: EmulatedAmoLead) => [
      l.name,
      ...(l.custom_fields_values ?? []).flatMap((f) => f.values.map((v) => String(v.value ?? ''))),
    ];
    const found = rt.leads
      .filter((l) => !query || filled(l).some((text) => text.toLowerCase().includes(query)))
      .slice(-limit)
      .reverse();
    if (!found.length) return reply.code(204).send();
    return hal(
      rt,
      'leads',
      found.map((l) => ({
        id: l.id,
        name: l.name,
        price: l.price,
        pipeline_id: l.pipeline_id,
        status_id: l.status_id,
        responsible_user_id: l.responsible_user_id,
        custom_fields_values: l.custom_fields_values,
        created_at: l.created_at,
        _embedded: { tags: l.tags },
      })),
      '/api/v4/leads',
    );
  });

  app.get('/api/v4/leads/:id', async (req, reply) => {
    const lead = rt.leads.find((l) => l.id === Number((req.params as { id: string }).id));
    if (!lead) return reply.code(204).send();
    return { ...lead, _embedded: { tags: lead.tags, contacts: lead.contactIds.map((id) => ({ id })) } };
  });

  app.post('/api/v4/leads/:id/notes', async (req, reply) => {
    const id = Number((req.params as { id: string }).id);
    if (!rt.leads.some((l) => l.id === id)) {
      return reply
        .code(404)
        .type('application/problem+json')
        .send(problem(404, 'Not Found', 'Lead not found'));
    }
    const items = Array.isArray(req.body) ? (req.body as Record<string, unknown>[]) : [];
    const made = items.map((item, i) => {
      if (typeof item.note_type !== 'string') {
        throw new Invalid(requestIdOf(item, i), [
          { code: 'NotBlank', path: 'note_type', detail: 'This value should not be blank.' },
        ]);
      }
      const note: EmulatedAmoNote = {
        id: 60_000_000 + rt.nextId++,
        entity_id: id,
        note_type: item.note_type,
        params: (item.params ?? {}) as Record<string, unknown>,
      };
      rt.notes.push(note);
      return { id: note.id, entity_id: id, request_id: requestIdOf(item, i) };
    });
    return hal(rt, 'notes', made, `/api/v4/leads/${id}/notes`);
  });
}
