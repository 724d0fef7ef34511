import { ZAccountPatchBody, ZPasswordBody, ZSuccessResponse, ZUpdatePasswordBody, ZUser } from '@leadrelay/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { TenantDataCleaner } from '../../lib/tenant-data';
import { authOf } from '../../plugins/auth';
import { clearRefreshCookie } from '../auth';
import { apiUser } from '../users';
import { clearAllData, patchAccount, removeAccount, updatePassword } from './account.service';

const tags = ['account'];

export interface AccountRoutesOptions {
  /** The modules' tenant-data cleaners, in the order they run (app-modules.ts lists them). */
  cleaners: readonly TenantDataCleaner[];
  /** What goes at once when an account is removed (another account's access through it). */
  onRemove: readonly TenantDataCleaner[];
}

export async function accountRoutes(app: FastifyInstance, { cleaners, onRemove }: AccountRoutesOptions): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { deps } = app;

  r.get('/api/account', { config: { access: 'client' }, schema: { tags, response: { 200: ZUser } } }, async (req) =>
    apiUser(deps.db, authOf(req).user),
  );

  r.patch(
    '/api/account',
    { config: { access: 'client' }, schema: { tags, body: ZAccountPatchBody, response: { 200: ZUser } } },
    (req) => patchAccount(deps, authOf(req).user, req.body),
  );

  r.post(
    '/api/account/update-password',
    { config: { access: 'client' }, schema: { tags, body: ZUpdatePasswordBody, response: { 200: ZSuccessResponse } } },
    async (req) => {
      await updatePassword(deps, authOf(req), req.body.oldPassword, req.body.password);
      return { success: true as const };
    },
  );

  r.post(
    '/api/account/clear-all-data',
    { config: { access: 'client' }, schema: { tags, body: ZPasswordBody, response: { 200: ZSuccessResponse } } },
    async (req) => {
      await clearAllData(deps, authOf(req).user, req.body.password, cleaners);
      return { success: true as const };
    },
  );

  r.post(
    '/api/account/remove-account',
    { config: { access: 'client' }, schema: { tags, body: ZPasswordBody, response: { 200: ZSuccessResponse } } },
    async (req, reply) => {
      await removeAccount(deps, authOf(req).user, req.body.password, onRemove);
      clearRefreshCookie(reply, deps.config);
      return { success: true as const };
    },
  );
}
