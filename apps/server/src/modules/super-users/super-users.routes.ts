import {
  ZClient,
  ZClientList,
  ZClientListQuery,
  ZClientPatchBody,
  ZClientStatistic,
  ZCreateClientBody,
  ZCreatedClient,
  ZEnterSession,
  ZHardDeleteBody,
  ZOrphansRemoved,
  ZSuccessResponse,
  ZUserCounters,
} from '@leadrelay/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { TenantDataCleaner } from '../../lib/tenant-data';
import { authOf } from '../../plugins/auth';
import { auditActor } from '../audit';
import { enterAs, hardDelete, leaveEntered, removeOrphans, resetPassword, softDelete } from './account-actions.service';
import { clientStatistic, createClient, listClients, patchClient, userCounters } from './super-users.service';

export interface SuperUsersRoutesOptions {
  /** Every tenant-data cleaner and the remove-time ones (app-modules.ts lists them): a hard delete runs all. */
  cleaners: readonly TenantDataCleaner[];
  onRemove: readonly TenantDataCleaner[];
}

const ZIdParams = z.object({ id: z.uuid({ message: 'VALIDATION_ERROR' }) });
const ZEnterQuery = z.object({ id: z.uuid({ message: 'VALIDATION_ERROR' }) }).strict();
const ZStatisticQuery = z.object({ days: z.coerce.number().int().min(1).max(90).default(30) }).strict();

/** Staff only (spec 6): the clients of the super-admin area. Who may act on whom: docs/operator.md. */
export async function superUsersRoutes(app: FastifyInstance, { cleaners, onRemove }: SuperUsersRoutesOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { deps } = app;
  const tags = ['super-admin'];
  const legacy = '/api/legacy/api/super-admin/users';

  r.get(
    `${legacy}/count`,
    { config: { access: 'privileged' }, schema: { tags, summary: 'User counters', response: { 200: ZUserCounters } } },
    () => userCounters(app.db),
  );

  r.get(
    legacy,
    {
      config: { access: 'privileged' },
      schema: {
        tags,
        summary: 'Accounts: search, filters, sort, paging',
        querystring: ZClientListQuery,
        response: { 200: ZClientList },
      },
    },
    (req) => listClients(app.db, req.query, authOf(req).user.lang),
  );

  r.post(
    legacy,
    {
      config: { access: 'privileged' },
      schema: {
        tags,
        summary: 'Create an account with a generated password, shown once',
        body: ZCreateClientBody,
        response: { 201: ZCreatedClient },
      },
    },
    async (req, reply) => {
      const created = await createClient(deps, authOf(req).user, auditActor(req), {
        login: req.body.login,
        role: req.body.role ?? 'client',
        lang: req.body.lang ?? 'uk',
      });
      return reply.code(201).send(created);
    },
  );

  r.get(
    `${legacy}/:id/statistic`,
    {
      config: { access: 'privileged' },
      schema: {
        tags,
        summary: 'Leads per day, integrations, delivery success rate, last activity',
        params: ZIdParams,
        querystring: ZStatisticQuery,
        response: { 200: ZClientStatistic },
      },
    },
    (req) => clientStatistic(app.db, req.params.id, req.query.days),
  );

  r.get(
    '/api/super/users/enter',
    {
      config: { access: 'privileged' },
      schema: {
        tags,
        summary: 'Enter a client account: a one-time code for /enter?code=, for this staff member only',
        querystring: ZEnterQuery,
        response: { 200: ZEnterSession },
      },
    },
    (req) =>
      enterAs(deps, authOf(req).user, auditActor(req), req.query.id, {
        userAgent: req.headers['user-agent'] ?? '',
        ip: req.ip,
      }),
  );

  // Called from inside the entered session (the client's own token), hence `client` access: only a
  // session a staff member opened can be left this way (others: 404).
  r.post(
    '/api/super/users/return',
    {
      config: { access: 'client' },
      schema: {
        tags,
        summary: 'End the entered session; the refresh cookie stays',
        response: { 200: ZSuccessResponse },
      },
    },
    async (req) => {
      const agent = req.headers['user-agent'];
      await leaveEntered(deps, authOf(req), { userAgent: agent ? agent.slice(0, 500) : null, ip: req.ip ?? null });
      return { success: true as const };
    },
  );

  r.post(
    '/api/super/users/:id/reset-password',
    {
      config: { access: 'privileged' },
      schema: {
        tags,
        summary: 'Mail the account a link to set a new password',
        params: ZIdParams,
        response: { 200: ZSuccessResponse },
      },
    },
    async (req) => {
      await resetPassword(deps, authOf(req).user, auditActor(req), req.params.id);
      return { success: true as const };
    },
  );

  r.delete(
    '/api/super/users/orphaned-documents',
    {
      config: { access: 'privileged' },
      schema: { tags, summary: 'Remove rows whose account is gone', response: { 200: ZOrphansRemoved } },
    },
    (req) => removeOrphans(deps, auditActor(req)),
  );

  r.patch(
    '/api/super/users/:id',
    {
      config: { access: 'privileged' },
      schema: {
        tags,
        summary: 'Change active, expDate, plan, role, credit',
        params: ZIdParams,
        body: ZClientPatchBody,
        response: { 200: ZClient },
      },
    },
    (req) => patchClient(deps, authOf(req).user, auditActor(req), req.params.id, req.body, authOf(req).user.lang),
  );

  r.delete(
    '/api/super/users/:id',
    {
      config: { access: 'privileged' },
      schema: {
        tags,
        summary: 'Soft delete: the login is freed, the data kept',
        params: ZIdParams,
        response: { 200: ZSuccessResponse },
      },
    },
    async (req) => {
      await softDelete(deps, authOf(req).user, auditActor(req), req.params.id, onRemove);
      return { success: true as const };
    },
  );

  r.delete(
    '/api/super/users/:id/hard-delete',
    {
      config: { access: 'privileged' },
      schema: {
        tags,
        summary: 'Delete the account and everything it owns; body { confirm: <its login> }',
        params: ZIdParams,
        body: ZHardDeleteBody,
        response: { 200: ZSuccessResponse },
      },
    },
    async (req) => {
      await hardDelete(deps, authOf(req).user, auditActor(req), req.params.id, req.body.confirm, [
        ...cleaners,
        ...onRemove,
      ]);
      return { success: true as const };
    },
  );
}
