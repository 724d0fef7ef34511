// Activities (v2) and notes (v1) in the Pipedrive emulator: what hangs off a lead, deal, person or
// organization, refused when what it points at does not exist.
import { type Api, bad, bodyOf, checkOwner, DATE, nowV1, nowV2, ok } from './emulator-api';
import { PIPEDRIVE_SEED, type Row } from './emulator-state';

export function registerActivityRoutes(api: Api): void {
  const { store, v2, personById } = api;
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
}

export function registerNoteRoutes(api: Api): void {
  const { store, v1, personById, orgById } = api;
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
}
