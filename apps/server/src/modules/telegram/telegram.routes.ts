// The Telegram manager bot's routes (issue 19, ADR 010): connecting a telegram integration (own bot
// or the platform's), its state, the account's bots, link codes for a collection's managers and
// unlinking, and the bot's webhook, which only the secret-token header authenticates.
import {
  ZSuccessResponse,
  ZTelegramAccount,
  ZTelegramBots,
  ZTelegramConnectBody,
  ZTelegramLinkCode,
  ZTelegramLinkCodeBody,
  ZTelegramUnlinkBody,
} from '@leadrelay/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { webhookCallback } from 'grammy';
import { z } from 'zod';
import { authOf } from '../../plugins/auth';
import * as service from './telegram.service';
import { makeBot } from './telegram-bot';
import { webhookTarget } from './telegram-webhook';

const tags = ['telegram'];
const base = '/api/telegram';
const ZIdParams = z.object({ id: z.string() });

export async function telegramRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { deps } = app;
  const user = (req: Parameters<typeof authOf>[0]) => authOf(req).user;

  r.post(
    `${base}/connect`,
    {
      config: { access: 'client' },
      schema: { tags, body: ZTelegramConnectBody, response: { 200: ZTelegramAccount } },
    },
    (req) => service.connect(deps, user(req), req.body),
  );
  r.get(
    `${base}/account/:id`,
    { config: { access: 'client' }, schema: { tags, params: ZIdParams, response: { 200: ZTelegramAccount } } },
    (req) => service.account(deps, user(req), req.params.id),
  );
  r.get(`${base}/bots`, { config: { access: 'client' }, schema: { tags, response: { 200: ZTelegramBots } } }, (req) =>
    service.bots(deps, user(req)),
  );
  r.post(
    `${base}/link-codes`,
    {
      config: { access: 'client' },
      schema: { tags, body: ZTelegramLinkCodeBody, response: { 201: ZTelegramLinkCode } },
    },
    async (req, reply) => reply.code(201).send(await service.createLinkCode(deps, user(req), req.body)),
  );
  r.post(
    `${base}/unlink`,
    {
      config: { access: 'client' },
      schema: { tags, body: ZTelegramUnlinkBody, response: { 200: ZSuccessResponse } },
    },
    async (req) => {
      await service.unlink(deps, user(req), req.body);
      return { success: true as const };
    },
  );

  // Telegram's updates for one bot: an account's own (its integration's id) or the platform's ("platform").
  r.post(
    `${base}/webhook/:id`,
    {
      // Telegram holds back a bot's later updates while one is refused: a stray NUL is cleaned, a key
      // named `__proto__` kept, not refused (plugins/input).
      config: { access: 'public', textPolicy: 'clean', keysAsData: true, rateLimit: 'webhook' },
      schema: { tags, summary: 'Telegram Bot API webhook (X-Telegram-Bot-Api-Secret-Token)', params: ZIdParams },
    },
    async (req, reply) => {
      const target = await webhookTarget(deps, req.params.id);
      // Nothing said about why: an unknown bot and a wrong secret look alike from outside.
      if (!target) return reply.code(404).send();
      const bot = makeBot(deps, target.token, target.info, target.scope, () => new Date());
      await webhookCallback(bot, 'fastify', { secretToken: target.secret })(req, reply);
      return reply;
    },
  );
}
