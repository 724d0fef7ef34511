// The seeded account's read-only data in the emulator: the account, its users, pipelines with their
// statuses, and the lead and contact custom fields.
import type { FastifyInstance } from 'fastify';
import { hal } from './emulator-gate';
import { AMO_SEED, type AmoRuntime, type SeedField } from './emulator-state';

export function registerAccountRoutes(app: FastifyInstance, rt: AmoRuntime): void {
  app.get('/api/v4/account', async () => ({
    ...AMO_SEED.account,
    _links: { self: { href: `${rt.origin()}/api/v4/account` } },
  }));
  app.get('/api/v4/users', async () =>
    hal(
      rt,
      'users',
      AMO_SEED.users.map((u) => ({ ...u, lang: 'uk', rights: {} })),
      '/api/v4/users',
    ),
  );
  app.get('/api/v4/leads/pipelines', async () => ({
    _total_items: AMO_SEED.pipelines.length,
    ...hal(
      rt,
      'pipelines',
      AMO_SEED.pipelines.map((p, i) => ({
        id: p.id,
        name: p.name,
        sort: i + 1,
        is_main: p.is_main,
        is_unsorted_on: true,
        is_archive: false,
        account_id: AMO_SEED.account.id,
        _embedded: {
          statuses: p.statuses.map((s, j) => ({
            ...s,
            sort: (j + 1) * 10,
            is_editable: s.type === 0 && s.id !== 142 && s.id !== 143,
            pipeline_id: p.id,
            account_id: AMO_SEED.account.id,
          })),
        },
      })),
      '/api/v4/leads/pipelines',
    ),
  }));
  const fieldsOf = (entity: 'leads' | 'contacts', list: readonly SeedField[]) =>
    hal(
      rt,
      'custom_fields',
      list.map((f, i) => ({
        ...f,
        sort: i + 1,
        is_api_only: false,
        entity_type: entity,
        account_id: AMO_SEED.account.id,
      })),
      `/api/v4/${entity}/custom_fields`,
    );
  app.get('/api/v4/leads/custom_fields', async () => fieldsOf('leads', AMO_SEED.leadFields));
  app.get('/api/v4/contacts/custom_fields', async () => fieldsOf('contacts', AMO_SEED.contactFields));
}
