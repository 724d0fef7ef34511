// The seeded account's read-only data in the emulator: the account, its users, pipelines with their
// statuses, and the lead and contact custom fields (a lead field may be added through the API).
import type { FastifyInstance } from 'fastify';
import { hal, halPage, Invalid, type ValidationError } from './emulator-gate';
import { AMO_SEED, type AmoFieldDef, type AmoRuntime, CREATABLE_FIELD_TYPES } from './emulator-state';
import { requestIdOf } from './emulator-validation';

export function registerAccountRoutes(app: FastifyInstance, rt: AmoRuntime): void {
  app.get('/api/v4/account', async () => ({
    ...AMO_SEED.account,
    _links: { self: { href: `${rt.origin()}/api/v4/account` } },
  }));
  // Paged (amocrm-api-php: Users uses PageMethodsTrait); pipelines are not.
  app.get('/api/v4/users', async (req, reply) => {
    const users = [...AMO_SEED.users, ...rt.extraUsers].map((u) => ({ ...u, lang: 'uk', rights: {} }));
    return halPage(rt, 'users', users, '/api/v4/users', req.query) ?? reply.code(204).send();
  });
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
  // Paged (amocrm-api-php: CustomFields uses PageMethodsTrait).
  const fieldsOf = (entity: 'leads' | 'contacts', list: readonly AmoFieldDef[], query: unknown) =>
    halPage(
      rt,
      'custom_fields',
      list.map((f, i) => ({
        ...f,
        sort: i + 1,
        is_api_only: f.is_api_only ?? false,
        entity_type: entity,
        account_id: AMO_SEED.account.id,
      })),
      `/api/v4/${entity}/custom_fields`,
      query,
    );
  app.get(
    '/api/v4/leads/custom_fields',
    async (req, reply) => fieldsOf('leads', rt.leadFields, req.query) ?? reply.code(204).send(),
  );
  // Adding lead fields: [{name, type, is_api_only?, sort?}], all or nothing. Only the types without a
  // list of values are emulated; amoCRM itself takes more (select with enums, …).
  app.post('/api/v4/leads/custom_fields', async (req) => {
    const items = Array.isArray(req.body) ? (req.body as Record<string, unknown>[]) : null;
    if (!items?.length) {
      throw new Invalid('0', [{ code: 'InvalidType', path: '', detail: 'This value should be a non-empty array.' }]);
    }
    const planned = items.map((item, i) => {
      const errors: ValidationError[] = [];
      if (typeof item.name !== 'string' || !item.name.trim()) {
        errors.push({ code: 'NotBlank', path: 'name', detail: 'This value should not be blank.' });
      }
      if (typeof item.type !== 'string' || !CREATABLE_FIELD_TYPES.has(item.type)) {
        errors.push({
          code: 'NotSupportedChoice',
          path: 'type',
          detail: 'The value you selected is not a valid choice.',
        });
      }
      if (errors.length) throw new Invalid(requestIdOf(item, i), errors);
      return { item, requestId: requestIdOf(item, i) };
    });
    const made = planned.map(({ item, requestId }) => {
      const field: AmoFieldDef = {
        id: 850_000 + rt.nextId++,
        name: String(item.name).trim(),
        type: String(item.type),
        code: null,
        enums: null,
        is_api_only: item.is_api_only === true,
      };
      rt.leadFields.push(field);
      return { ...field, entity_type: 'leads', account_id: AMO_SEED.account.id, request_id: requestId };
    });
    return hal(rt, 'custom_fields', made, '/api/v4/leads/custom_fields');
  });
  app.get(
    '/api/v4/contacts/custom_fields',
    async (req, reply) => fieldsOf('contacts', AMO_SEED.contactFields, req.query) ?? reply.code(204).send(),
  );
}
