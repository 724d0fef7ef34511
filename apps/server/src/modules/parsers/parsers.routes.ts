// Parsers (spec 7 "Parsers"): the list, the lists the screens pick from, create, update, delete,
// config and read by id, for privileged roles only (spec 2 and 6: a staff feature); the page's
// mail log with "try again" on a failed mail, live preview and "check the mailbox now"; and the public read GET /api/ihome/parser/{id}.
// The spec names the id calls under /api/admin/parser; they answer under the legacy prefix too.
import {
  ZParser,
  ZParserConfigBody,
  ZParserCreateBody,
  ZParserDestinationsQuery,
  ZParserIntegrationRefs,
  ZParserList,
  ZParserListQuery,
  ZParserMail,
  ZParserMailList,
  ZParserPreview,
  ZParserPreviewBody,
  ZParserPublic,
  ZParserUpdateBody,
} from '@leadrelay/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/app-error';
import { authOf } from '../../plugins/auth';
import { forgetSourcesAfterWrites } from '../ingest';
import { registerIntegrationType } from '../integrations';
import type { ParserRuntime } from './parsers.runtime';
import {
  configureParser,
  createParser,
  deleteParser,
  getParser,
  listParserMails,
  listParsers,
  parserDestinations,
  parserSources,
  previewParser,
  publicParser,
  retryParserMail,
  updateParser,
  validParserSettings,
} from './parsers.service';

const tags = ['parsers'];
const LEGACY = '/api/legacy/api/admin/parser';
const ADMIN = '/api/admin/parser';
const ZIdParams = z.object({ id: z.string() });
const ZMailsQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(10),
});

export async function parsersRoutes(app: FastifyInstance, options: { runtime: ParserRuntime }): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { runtime } = options;
  const deps = runtime.deps;
  const user = (req: Parameters<typeof authOf>[0]) => authOf(req).user;
  // The integrations API checks a parser's settings as this API does (a staff member's own parser).
  registerIntegrationType('parser', {
    checkSettings: async (_db, _actor, raw) => ({ settings: validParserSettings(raw) }),
  });
  // A mapping or filter changed here applies to the next mail at once, as on the integration page.
  forgetSourcesAfterWrites(app);

  r.get(
    LEGACY,
    {
      config: { access: 'privileged' },
      schema: { tags, summary: 'The account’s parsers', querystring: ZParserListQuery, response: { 200: ZParserList } },
    },
    (req) => listParsers(deps, user(req), req.query),
  );
  r.get(
    `${LEGACY}/integrations`,
    {
      config: { access: 'privileged' },
      schema: {
        tags,
        summary: 'Sources: the account’s parser integrations',
        response: { 200: ZParserIntegrationRefs },
      },
    },
    (req) => parserSources(deps, user(req)),
  );
  r.get(
    `${LEGACY}/destinations`,
    {
      config: { access: 'privileged' },
      schema: {
        tags,
        summary: 'The account’s integrations a parser may send leads to',
        querystring: ZParserDestinationsQuery,
        response: { 200: ZParserIntegrationRefs },
      },
    },
    (req) => parserDestinations(deps, user(req), req.query),
  );
  r.post(
    LEGACY,
    {
      config: { access: 'privileged' },
      schema: {
        tags,
        summary: 'Create a parser (it gets its address)',
        body: ZParserCreateBody,
        response: { 201: ZParser },
      },
    },
    async (req, reply) => reply.code(201).send(await createParser(deps, user(req), req.body)),
  );

  for (const prefix of [ADMIN, LEGACY]) {
    const hide = prefix === LEGACY;
    r.get(
      `${prefix}/:id`,
      {
        config: { access: 'privileged' },
        schema: { tags, hide, summary: 'One parser', params: ZIdParams, response: { 200: ZParser } },
      },
      (req) => getParser(deps, user(req), req.params.id),
    );
    r.put(
      `${prefix}/:id`,
      {
        config: { access: 'privileged' },
        schema: {
          tags,
          hide,
          summary: 'Name, active, destinations, distribution, mapping and filters (body without id)',
          params: ZIdParams,
          body: ZParserUpdateBody,
          response: { 200: ZParser },
        },
      },
      (req) => updateParser(deps, user(req), req.params.id, req.body),
    );
    r.delete(
      `${prefix}/:id`,
      { config: { access: 'privileged' }, schema: { tags, hide, summary: 'Delete a parser', params: ZIdParams } },
      async (req, reply) => {
        await deleteParser(deps, user(req), req.params.id);
        return reply.code(204).send();
      },
    );
    r.put(
      `${prefix}/:id/config`,
      {
        config: { access: 'privileged' },
        schema: {
          tags,
          hide,
          summary: 'Rules, mailbox (IMAP; the password is stored sealed) and sample',
          params: ZIdParams,
          body: ZParserConfigBody,
          response: { 200: ZParser },
        },
      },
      (req) => configureParser(deps, user(req), req.params.id, req.body),
    );
  }

  r.get(
    `${ADMIN}/:id/mails`,
    {
      config: { access: 'privileged' },
      schema: {
        tags,
        summary: 'The mail log: the last mails and what became of each',
        params: ZIdParams,
        querystring: ZMailsQuery,
        response: { 200: ZParserMailList },
      },
    },
    (req) => listParserMails(deps, user(req), req.params.id, req.query),
  );
  r.post(
    `${ADMIN}/:id/mails/:mailId/retry`,
    {
      config: { access: 'privileged' },
      schema: {
        tags,
        summary: 'Try a failed mail again now: answered with what became of it (failed again, with the new reason)',
        params: z.object({ id: z.string(), mailId: z.string() }),
        response: { 200: ZParserMail },
      },
    },
    (req) => retryParserMail(deps, user(req), req.params.id, req.params.mailId),
  );
  r.post(
    `${ADMIN}/:id/preview`,
    {
      config: { access: 'privileged' },
      schema: {
        tags,
        summary: 'What a sample or a received mail yields under the given (unsaved) rules',
        params: ZIdParams,
        body: ZParserPreviewBody,
        response: { 200: ZParserPreview },
      },
    },
    (req) => previewParser(deps, user(req), req.params.id, req.body),
  );
  r.post(
    `${ADMIN}/:id/poll`,
    {
      config: { access: 'privileged' },
      schema: {
        tags,
        summary: 'Check the parser’s mailbox now',
        params: ZIdParams,
        response: { 200: z.object({ stored: z.number() }) },
      },
    },
    async (req) => {
      const parser = await getParser(deps, user(req), req.params.id);
      if (!parser.imap?.enabled) throw new AppError('INTEGRATION_NOT_CONNECTED');
      try {
        return { stored: (await runtime.pollOne(parser._id)).length };
      } catch (error) {
        throw new AppError('PARSER_IMAP_FAILED', { message: (error as Error).message?.slice(0, 300) });
      }
    },
  );

  r.get(
    '/api/ihome/parser/:id',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Public: whether a parser takes mail and when the last came (nothing else)',
        params: ZIdParams,
        response: { 200: ZParserPublic },
      },
    },
    (req) => publicParser(deps.db, req.params.id),
  );
}
