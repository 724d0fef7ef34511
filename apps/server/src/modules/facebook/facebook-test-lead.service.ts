// "Send a test lead" on a facebook integration: Graph's own test_leads call on the integration's form
// (what Meta's Lead Ads testing tool does), so the lead comes back the way a real one does: webhook,
// fetch, mapping, destinations. Meta allows one test lead per form at a time: the one this app
// made last is deleted first.
import { and, eq } from 'drizzle-orm';
import { integrations } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { isUuid } from '../../lib/ids';
import { type FacebookDeps, graphFor } from './facebook-deps';
import { withConnection } from './facebook-health';
import { type Actor, ownConnection, ownPage, pageTokenOf } from './facebook-store';

/**
 * formId → the test lead made last (by this app); the oldest forms are forgotten past MAX_FORMS.
 * Per app config: apps sharing a process (tests) talk to different Graphs with the same form ids.
 */
const lastTestLeads = new WeakMap<FacebookDeps['config'], Map<string, string>>();
const MAX_FORMS = 1_000;

export async function sendTestLead(
  deps: FacebookDeps,
  actor: Actor,
  integrationId: string,
  fieldData?: { name: string; values: string[] }[],
): Promise<{ leadgenId: string }> {
  if (!isUuid(integrationId)) throw new AppError('INTEGRATION_NOT_FOUND');
  const [row] = await deps.db
    .select({ settings: integrations.settings })
    .from(integrations)
    .where(
      and(eq(integrations.id, integrationId), eq(integrations.accountId, actor.id), eq(integrations.type, 'facebook')),
    );
  if (!row) throw new AppError('INTEGRATION_NOT_FOUND');
  const { fbConnectionId, fbPageId, fbFormId } = row.settings as Record<string, unknown>;
  if (typeof fbConnectionId !== 'string' || typeof fbPageId !== 'string' || typeof fbFormId !== 'string') {
    throw new AppError('INTEGRATION_NOT_CONNECTED');
  }
  const conn = await ownConnection(deps.db, actor, fbConnectionId);
  const page = await ownPage(deps.db, conn, fbPageId);
  const token = pageTokenOf(deps.secrets, page);
  const graph = graphFor(deps);
  const lastTestLead = lastTestLeads.get(deps.config) ?? new Map<string, string>();
  lastTestLeads.set(deps.config, lastTestLead);
  return withConnection(deps, conn, async () => {
    const previous = lastTestLead.get(fbFormId);
    if (previous) {
      // Already gone (deleted in Meta's tool, or never made) is fine: the new one is what matters.
      await graph.deleteLead(previous, token).catch(() => undefined);
      lastTestLead.delete(fbFormId);
    }
    const leadgenId = await graph.testLead(fbFormId, token, fieldData);
    lastTestLead.set(fbFormId, leadgenId);
    // A forgotten form's last test lead is not deleted first: Meta then refuses the new one until
    // it is deleted in its tool, which only a person testing over a thousand forms could meet.
    for (const old of lastTestLead.keys()) {
      if (lastTestLead.size <= MAX_FORMS) break;
      lastTestLead.delete(old);
    }
    return { leadgenId };
  });
}
