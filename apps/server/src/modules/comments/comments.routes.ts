// POST /api/legacy/api/comment (spec 7 "Other"): a team note on a lead in the lead log, with the
// list and delete calls the screen needs.
import { ZComment, ZCommentBody, ZCommentListQuery, ZSuccessResponse } from '@leadrelay/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authOf } from '../../plugins/auth';
import { addComment, deleteComment, listComments } from './comments.service';

const base = '/api/legacy/api/comment';
const tags = ['hooks'];

export async function commentsRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    base,
    {
      config: { access: 'client' },
      schema: {
        tags,
        summary: 'Notes on one hook, oldest first',
        querystring: ZCommentListQuery,
        response: { 200: z.array(ZComment) },
      },
    },
    (req) => listComments(app.db, authOf(req).user.id, req.query.hookId),
  );
  r.post(
    base,
    {
      config: { access: 'client' },
      schema: { tags, summary: 'Add a note to a hook of the account', body: ZCommentBody, response: { 201: ZComment } },
    },
    async (req, reply) => {
      const { user } = authOf(req);
      return reply.code(201).send(await addComment(app.db, { accountId: user.id, login: user.login }, req.body));
    },
  );
  r.delete(
    `${base}/:id`,
    {
      config: { access: 'client' },
      schema: { tags, params: z.object({ id: z.string().max(100) }), response: { 200: ZSuccessResponse } },
    },
    async (req) => {
      await deleteComment(app.db, authOf(req).user.id, req.params.id);
      return { success: true as const };
    },
  );
}
