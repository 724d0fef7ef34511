import {
  ZGuardianSettings,
  ZOwnerTelegram,
  ZOwnerTelegramLinkCodeBody,
  ZReconciliationQuery,
  ZSuccessResponse,
  ZTelegramLinkCode,
} from '@leadrelay/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { authOf } from '../../plugins/auth';
import { listAlerts } from './guardian.service';
import { getSettings, saveSettings } from './guardian-settings';
import { createOwnerLinkCode, ownerTelegram, unlinkOwner } from './owner-telegram';
import { reconciliation } from './reconciliation';

const tags = ['guardian'];

export async function guardianRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/guardian/alerts',
    {
      config: { access: 'client' },
      schema: {
        tags,
        summary: "The guardian's alerts of the account (droughts, credential expiries, refused sources), newest first",
      },
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

  // The owner's own Telegram chat for the guardian's notices (owner-telegram.ts).
  r.get(
    '/api/guardian/telegram',
    {
      config: { access: 'client' },
      schema: {
        tags,
        summary: "The owner's linked Telegram chat and the bot to link it on",
        response: { 200: ZOwnerTelegram },
      },
    },
    (req) => ownerTelegram(app.deps, authOf(req).user),
  );
  r.post(
    '/api/guardian/telegram/link-code',
    {
      config: { access: 'client' },
      schema: {
        tags,
        summary: "A one-time code (15 minutes) linking the owner's Telegram chat to the account's bot",
        body: ZOwnerTelegramLinkCodeBody,
        response: { 201: ZTelegramLinkCode },
      },
    },
    async (req, reply) => reply.code(201).send(await createOwnerLinkCode(app.deps, authOf(req).user, req.body ?? {})),
  );
  r.delete(
    '/api/guardian/telegram',
    {
      config: { access: 'client' },
      schema: { tags, summary: "Unlinks the owner's Telegram chat", response: { 200: ZSuccessResponse } },
    },
    async (req) => {
      await unlinkOwner(app.db, authOf(req).user);
      return { success: true as const };
    },
  );
}
