import { ZSessionList, ZSuccessResponse } from '@leadrelay/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/app-error';
import { authOf } from '../../plugins/auth';
import { clearRefreshCookie } from './refresh-cookie';
import { listSessions, revokeOwnSession, revokeUserSessions } from './sessions.service';

const tags = ['auth'];

export async function sessionsRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { deps } = app;

  r.get(
    '/api/auth/sessions',
    { config: { access: 'client' }, schema: { tags, response: { 200: ZSessionList } } },
    async (req) => {
      const { user, sessionId } = authOf(req);
      return listSessions(deps.db, user.id, sessionId);
    },
  );

  r.delete(
    '/api/auth/sessions/:id',
    {
      config: { access: 'client' },
      schema: { tags, params: z.object({ id: z.string().max(64) }), response: { 200: ZSuccessResponse } },
    },
    async (req, reply) => {
      const { user, sessionId } = authOf(req);
      // Another user's id, an unknown one and a malformed one look the same.
      if (!(await revokeOwnSession(deps.db, user.id, req.params.id))) throw new AppError('SESSION_NOT_FOUND');
      if (req.params.id === sessionId) clearRefreshCookie(reply, deps.config);
      return { success: true as const };
    },
  );

  r.post(
    '/api/auth/sessions/revoke-all',
    { config: { access: 'client' }, schema: { tags, response: { 200: ZSuccessResponse } } },
    async (req) => {
      const { user, sessionId } = authOf(req);
      await revokeUserSessions(deps.db, user.id, sessionId);
      return { success: true as const };
    },
  );
}
