// /api/account/api-keys (issue 34): a person signed in lists, makes and revokes the account's keys.
// `apiKey: false`: a key cannot make or revoke keys (403 API_KEY_NOT_ALLOWED).
import { ZApiKeyList, ZCreateApiKeyBody, ZCreatedApiKey, ZSuccessResponse } from '@leadrelay/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/app-error';
import { authOf } from '../../plugins/auth';
import { auditActor } from '../audit';
import { createApiKey, listApiKeys, revokeApiKey } from './api-keys.service';

const tags = ['account'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function apiKeysRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app;

  r.get(
    '/api/account/api-keys',
    {
      config: { access: 'client', apiKey: false },
      schema: { tags, summary: "The account's live API keys (never a secret)", response: { 200: ZApiKeyList } },
    },
    (req) => listApiKeys(db, authOf(req).user),
  );

  r.post(
    '/api/account/api-keys',
    {
      config: { access: 'client', apiKey: false },
      schema: {
        tags,
        summary: 'Make an API key; the answer holds the key in full, this once',
        body: ZCreateApiKeyBody,
        response: { 201: ZCreatedApiKey },
      },
    },
    async (req, reply) => {
      const { user, sessionId } = authOf(req);
      return reply.code(201).send(await createApiKey(db, user, sessionId, auditActor(req), req.body));
    },
  );

  r.delete(
    '/api/account/api-keys/:id',
    {
      config: { access: 'client', apiKey: false },
      schema: {
        tags,
        summary: 'Revoke an API key at once',
        params: z.object({ id: z.string().max(100) }),
        response: { 200: ZSuccessResponse },
      },
    },
    async (req) => {
      // Another account's id, an unknown one and a malformed one look the same.
      if (!UUID.test(req.params.id)) throw new AppError('API_KEY_NOT_FOUND');
      await revokeApiKey(db, authOf(req).user, auditActor(req), req.params.id);
      return { success: true as const };
    },
  );
}
