import { ZGuardianSettings, ZReconciliationQuery } from '@leadrelay/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { authOf } from '../../plugins/auth';
import { listAlerts } from './guardian.service';
import { getSettings, saveSettings } from './guardian-settings';
import { reconciliation } from './reconciliation';

const tags = ['guardian'];

export async function guardianRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/guardian/alerts',
    {
      config: { access: 'client' },
      schema: { tags, summary: "The guardian's alerts of the account (droughts, credential expiries), newest first" },
    },
    (req) => listAlerts(app.db, authOf(req).user.id),
  );
  r.get(
    '/api/guardian/reconciliation',
    {
      config: { access: 'client' },
      schema: {
        tags,
        summary: 'Per source integration and Kyiv day: leads received, delivered, held, failed',
        querystring: ZReconciliationQuery,
      },
    },
    (req) => reconciliation(app.db, authOf(req).user.id, req.query.days),
  );
  r.get(
    '/api/guardian/settings',
    {
      config: { access: 'client' },
      schema: { tags, summary: "Which of the guardian's mails the account gets" },
    },
    (req) => getSettings(app.db, authOf(req).user.id),
  );
  r.put(
    '/api/guardian/settings',
    {
      config: { access: 'client' },
      schema: { tags, summary: "Turns the guardian's mails on or off", body: ZGuardianSettings },
    },
    (req) => saveSettings(app.db, authOf(req).user.id, req.body),
  );
}
