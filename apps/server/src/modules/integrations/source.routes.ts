// What connectors declare for their own connect and as lead sources (kit/source.ts), mounted once
// for all of them:
//   POST   /api/integrations/{id}/connect               credentials typed in, checked and traded by the connector
//   GET    /api/integrations/{id}/source                the source's state (subscription, poll, items seen)
//   POST   /api/integrations/{id}/source/subscription   our receiver registered at the sender (DELETE removes it)
//   POST   /api/integrations/{id}/source/poll           a poll now
// the aliases connectors declare for them (the spec's own paths, with their schemas), and every
// receiver at the path it declares: public, proved by the integration's secret token in the path.
// A receiver's scope reads any content type as bytes (up to the webhook limit) and parses them as
// JSON here, so a hostile body is a 4xx, never a 500; items are acknowledged only after their leads
// are committed (ingest), so a 2xx never loses one.
import { type ConnectorDefinition, connectors, type SourceAlias, type SourceReceiver } from '@leadrelay/connectors';
import { WEBHOOK_BODY_LIMIT_BYTES, ZIntegration } from '@leadrelay/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/app-error';
import { authOf } from '../../plugins/auth';
import { storedRequest } from '../ingest';
import { connectOwn } from './own-connect.service';
import {
  pollNow,
  receive,
  sourceState,
  stateSchemaOf,
  subscribe,
  subscriptionRemoved,
  unsubscribe,
} from './source.service';
import { sourceDeps } from './source-deps';

type Connector = ConnectorDefinition<unknown, unknown>;

const tags = ['integrations'];
const ZIdParams = z.object({ id: z.string() });
const ZNoBody = z.object({}).strict().nullish();
const ZConnected = z.object({ data: z.object({ integration: ZIntegration }) });
const ZTokenParams = z.object({ token: z.string().min(1).max(200) });
const ZReceived = z.object({
  ok: z.literal(true),
  items: z.array(z.object({ id: z.string(), status: z.string(), hookId: z.string().nullable() })),
});
const user = (req: FastifyRequest) => authOf(req).user;

/** What a source's screen asks (`:id` its integration, `type` when an alias names it): method, body, service. */
const SCREEN = {
  subscribe: { method: 'POST', path: '/source/subscription', body: ZNoBody, run: subscribe },
  unsubscribe: { method: 'DELETE', path: '/source/subscription', body: undefined, run: unsubscribe },
  poll: { method: 'POST', path: '/source/poll', body: ZNoBody, run: pollNow },
} as const;

export async function sourceRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const deps = sourceDeps(app);
  r.post(
    '/api/integrations/:id/connect',
    { config: { access: 'client' }, schema: { tags, params: ZIdParams, response: { 200: ZConnected } } },
    (req) => connectOwn(deps, user(req), req.params.id, req.body),
  );
  r.get('/api/integrations/:id/source', { config: { access: 'client' }, schema: { tags, params: ZIdParams } }, (req) =>
    sourceState(deps, user(req), req.params.id),
  );
  for (const kind of Object.values(SCREEN)) {
    r.route({
      method: kind.method,
      url: `/api/integrations/:id${kind.path}`,
      config: { access: 'client' },
      schema: { tags, params: ZIdParams, ...(kind.body ? { body: kind.body } : {}) },
      handler: (req) => kind.run(deps, user(req), req.params.id),
    });
  }
  await app.register(receiverRoutes);
}

/** One of a connector's aliases for its connect or its source's screen, with the connector's schemas. */
export function mountSourceAlias(app: FastifyInstance, type: string, alias: SourceAlias): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const deps = sourceDeps(app);
  const connector = connectors.get(type);
  const common = { tags: [type], params: ZIdParams, ...(alias.summary ? { summary: alias.summary } : {}) };
  if (alias.source === 'connect') {
    const body = connector?.source?.connect?.body;
    r.post(
      alias.path,
      { config: { access: 'client' }, schema: { ...common, ...(body ? { body } : {}), response: { 200: ZConnected } } },
      (req) => connectOwn(deps, user(req), req.params.id, req.body, type),
    );
    return;
  }
  const state = stateSchemaOf(connector);
  if (alias.source === 'state') {
    r.get(alias.path, { config: { access: 'client' }, schema: { ...common, response: { 200: state } } }, (req) =>
      sourceState(deps, user(req), req.params.id, type),
    );
    return;
  }
  const kind = SCREEN[alias.source];
  r.route({
    method: kind.method,
    url: alias.path,
    config: { access: 'client' },
    schema: { ...common, ...(kind.body ? { body: kind.body } : {}), response: { 200: z.object({ data: state }) } },
    handler: (req) => kind.run(deps, user(req), req.params.id, type) as never,
  });
}

type JsonParser = (req: FastifyRequest, body: string, done: (error: Error | null, value?: unknown) => void) => void;

/** Every receiver of every source, in a scope of its own (its content-type parsers are its own). */
async function receiverRoutes(app: FastifyInstance): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT_BYTES }, (_req, body, done) =>
    done(null, body),
  );
  const parsers = {
    // As plugins/input.ts: a sender that cannot change its bodies has `__proto__` and `constructor` as fields.
    keysAsData: app.getDefaultJsonParser('ignore', 'ignore') as unknown as JsonParser,
    strict: app.getDefaultJsonParser('error', 'error') as unknown as JsonParser,
  };
  for (const connector of connectors.values()) {
    for (const receiver of Object.values(connector.source?.receivers ?? {})) {
      mountReceiver(app, connector, receiver, receiver.keysAsData ? parsers.keysAsData : parsers.strict);
    }
  }
}

const ALL_METHODS = ['GET', 'PUT', 'POST', 'PATCH', 'DELETE', 'OPTIONS'] as const;

function mountReceiver(app: FastifyInstance, connector: Connector, receiver: SourceReceiver, parse: JsonParser) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const deps = sourceDeps(app);
  const tagsOf = [connector.slug];
  r.route({
    method: [...receiver.methods],
    url: receiver.path,
    config: { access: 'public', rateLimit: 'webhook', keysAsData: receiver.keysAsData },
    bodyLimit: WEBHOOK_BODY_LIMIT_BYTES,
    schema: {
      tags: tagsOf,
      summary: receiver.summary,
      params: ZTokenParams,
      response: { 200: receiver.reply?.schema ?? ZReceived },
    },
    handler: async (req) => {
      const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const meta = storedRequest(req.method, req.headers, undefined, req.ip);
      const body = () =>
        new Promise<unknown>((resolve, reject) =>
          parse(req, raw.toString('utf8'), (error, value) =>
            error ? reject(new AppError('INVALID_JSON')) : resolve(value),
          ),
        );
      const outcomes = await receive(deps, connector, receiver, req.params.token, body, {
        method: req.method,
        headers: meta.headers,
        contentType: meta.contentType,
        ip: req.ip,
      });
      return (receiver.reply ? receiver.reply.body(outcomes) : { ok: true, items: outcomes }) as never;
    },
  });

  const taken: string[] = [...receiver.methods];
  if (receiver.removal) {
    taken.push('DELETE');
    r.delete(
      receiver.path,
      {
        config: { access: 'public' },
        bodyLimit: WEBHOOK_BODY_LIMIT_BYTES,
        schema: {
          tags: tagsOf,
          summary: receiver.removal.summary,
          params: ZTokenParams,
          response: { 200: z.object({ ok: z.literal(true) }) },
        },
      },
      async (req) => {
        await subscriptionRemoved(deps, connector, req.params.token);
        return { ok: true as const };
      },
    );
  }

  // Anything else at this address is a clear 405 naming what it takes (GET brings HEAD with it).
  r.route({
    method: ALL_METHODS.filter((m) => !taken.includes(m)),
    url: receiver.path,
    config: { access: 'public' },
    schema: { hide: true, params: ZTokenParams },
    handler: async () => {
      throw new AppError('METHOD_NOT_ALLOWED', { headers: { allow: taken.join(', ') } });
    },
  });
}
