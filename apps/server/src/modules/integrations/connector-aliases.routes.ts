// The spec's own paths that connector definitions declare (ConnectorDefinition.aliases), each kind of
// alias mounted here once for every connector, thin over the generic services with the connector's
// schemas (so the API document and the answers are the spec's): lists, actions, records, the OAuth
// flow's steps, connecting with what was typed, the connection's account and the destination's
// webhooks. Every `:id` / `integrationId` is the caller's own integration of the connector's type,
// else 404 INTEGRATION_NOT_FOUND.
import { type ConnectorAlias, type ConnectorDefinition, connectors } from '@leadrelay/connectors';
import { ZOAuthUrl, ZSuccessResponse } from '@leadrelay/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/app-error';
import { bindStateToBrowser } from '../../lib/oauth-state';
import { authOf } from '../../plugins/auth';
import { runAction } from './connector-actions.service';
import { remoteWebhooks } from './connector-calls.service';
import {
  type AfterConnect,
  connectionAccount,
  connectWithCredentials,
  connectWithScreenCode,
} from './connector-connect.service';
import { listRecords, recordKindOf } from './connector-records.service';
import { registerLoaderRoutes } from './loader-routes';
import {
  appClient,
  callbackOf,
  consentUrl,
  oauthConnector,
  signConnectState,
  startConnect,
  stateIntegration,
} from './oauth-connect.service';
import { mountSourceAlias } from './source.routes';

type Connector = ConnectorDefinition<unknown, unknown>;
type Of<K extends string> = Extract<ConnectorAlias, Record<K, unknown>>;
type Request = Parameters<typeof authOf>[0];

const ZIdParams = z.object({ id: z.string() });
const ZIntegrationParams = z.object({ integrationId: z.string() });
/** `locale`: the language the user started in; the OAuth return lands on that language's screen. */
const ZStartBody = z.object({ integrationId: z.uuid(), locale: z.enum(['uk', 'en']).optional() });
const ZState = z.object({ state: z.string() });
const ZConsentBody = z.object({ state: z.string().min(1).max(4000) });
const ZAuthUrl = z.object({ authUrl: z.string() });

const user = (req: Request) => authOf(req).user;

function mountAction(app: FastifyInstance, type: string, alias: Of<'action'>): void {
  const action = connectors.get(type)?.actions?.[alias.action];
  const kept = action?.keep ? recordKindOf(type, action.keep) : undefined;
  // The integration is the path's :id, or, on a path without one, the body's integrationId.
  const inPath = alias.path.endsWith('/:id');
  const body = inPath ? action?.body : alias.body;
  app.withTypeProvider<ZodTypeProvider>().post(
    alias.path,
    {
      config: { access: 'client' },
      schema: {
        tags: [type],
        ...(inPath ? { params: ZIdParams } : {}),
        ...(body ? { body } : {}),
        ...(kept ? { response: { 201: kept.item } } : action?.response ? { response: { 200: action.response } } : {}),
      },
    },
    async (req, reply) => {
      const id = inPath
        ? (req.params as { id: string }).id
        : String((req.body as { integrationId?: unknown } | null)?.integrationId ?? '');
      const { status, answer } = await runAction(app.deps, user(req), id, alias.action, req.body, type);
      return reply.code(status).send(answer);
    },
  );
}

function mountRecords(app: FastifyInstance, type: string, alias: Of<'records'>): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  if ('query' in alias) {
    // The account's records of the kind over all its integrations of the type.
    r.get(
      alias.path,
      {
        config: { access: 'client' },
        schema: { tags: [type], querystring: alias.query, response: { 200: alias.response } },
      },
      (req) => listRecords(app.db, user(req), type, alias.records, req.query) as never,
    );
    return;
  }
  // One integration's, newest first, as many as the kind keeps.
  const limit = recordKindOf(type, alias.records)?.keep ?? 100;
  r.get(
    alias.path,
    { config: { access: 'client' }, schema: { tags: [type], params: ZIdParams, response: { 200: alias.response } } },
    (req) =>
      listRecords(app.db, user(req), type, alias.records, { page: 1, limit, integrationId: req.params.id }) as never,
  );
}

function mountOAuth(app: FastifyInstance, type: string, alias: Of<'oauth'>): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { deps } = app;
  const tags = [type];
  if (alias.oauth === 'start') {
    r.post(
      alias.path,
      { config: { access: 'client' }, schema: { tags, body: ZStartBody, response: { 200: ZOAuthUrl } } },
      async (req, reply) => {
        const { url, state } = await startConnect(deps, user(req), type, req.body.integrationId, req.body.locale);
        const callback = callbackOf(oauthConnector(type));
        if (callback.lands === 'integration') {
          bindStateToBrowser(reply, callback.cookie, state, deps.config.secureCookies);
        }
        return { url };
      },
    );
  } else if (alias.oauth === 'state') {
    r.post(
      alias.path,
      { config: { access: 'client' }, schema: { tags, body: ZStartBody, response: { 200: ZState } } },
      async (req) => ({
        state: await signConnectState(deps, user(req), type, req.body.integrationId, req.body.locale),
      }),
    );
  } else {
    r.post(
      alias.path,
      { config: { access: 'client' }, schema: { tags, body: ZConsentBody, response: { 200: ZAuthUrl } } },
      async (req) => {
        appClient(deps, oauthConnector(type));
        await stateIntegration(deps, user(req), type, req.body.state);
        return { authUrl: consentUrl(deps, type, req.body.state) };
      },
    );
  }
}

function mountConnect(app: FastifyInstance, connector: Connector, alias: Of<'connect'>, afterConnect: AfterConnect) {
  const type = connector.slug;
  const body = alias.body ?? connector.connect?.body;
  const response = alias.response ?? connector.connect?.response;
  app.withTypeProvider<ZodTypeProvider>().post(
    alias.path,
    {
      config: { access: 'client' },
      schema: { tags: [type], ...(body ? { body } : {}), ...(response ? { response: { 200: response } } : {}) },
    },
    async (req) => {
      const sent = req.body as Record<string, unknown>;
      // Without an integration named: the code and state the OAuth callback handed the connect screen.
      if (typeof sent.integrationId !== 'string') {
        if (typeof sent.code !== 'string' || typeof sent.state !== 'string') throw new AppError('VALIDATION_ERROR');
        return connectWithScreenCode(app.deps, user(req), type, { code: sent.code, state: sent.state }, afterConnect);
      }
      return connectWithCredentials(
        app.deps,
        user(req),
        type,
        sent as { integrationId: string } & Record<string, unknown>,
        afterConnect,
      );
    },
  );
}

function mountWebhooks(app: FastifyInstance, type: string, alias: Of<'webhooks'>): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = [type];
  const webhooks = (req: Request & { params: { integrationId: string } }) =>
    remoteWebhooks(app.deps, user(req), req.params.integrationId, type, alias.refusal ?? 'CONNECTION_FAILED');
  if (alias.webhooks === 'list') {
    r.get(
      alias.path,
      {
        config: { access: 'client' },
        schema: { tags, params: ZIntegrationParams, response: { 200: alias.response } },
      },
      (req) => webhooks(req).list() as never,
    );
  } else if (alias.webhooks === 'create') {
    r.post(
      alias.path,
      {
        config: { access: 'client' },
        schema: { tags, params: ZIntegrationParams, body: alias.body, response: { 200: alias.response } },
      },
      (req) => webhooks(req).create(req.body) as never,
    );
  } else {
    r.delete(
      alias.path,
      {
        config: { access: 'client' },
        schema: { tags, params: ZIntegrationParams, querystring: alias.query, response: { 200: ZSuccessResponse } },
      },
      async (req) => {
        await webhooks(req).remove(req.query.id);
        return { success: true as const };
      },
    );
  }
}

function mountAlias(app: FastifyInstance, connector: Connector, alias: ConnectorAlias, afterConnect: AfterConnect) {
  const type = connector.slug;
  if ('list' in alias) {
    const route = { path: alias.path, list: alias.list, response: alias.response };
    registerLoaderRoutes(app, type, [route], { tags: [type], refusal: alias.refusal });
  } else if ('action' in alias) {
    mountAction(app, type, alias);
  } else if ('records' in alias) {
    mountRecords(app, type, alias);
  } else if ('oauth' in alias) {
    mountOAuth(app, type, alias);
  } else if ('source' in alias) {
    mountSourceAlias(app, type, alias);
  } else if ('connect' in alias) {
    mountConnect(app, connector, alias, afterConnect);
  } else if ('account' in alias) {
    app.withTypeProvider<ZodTypeProvider>().get(
      alias.path,
      {
        config: { access: 'client' },
        schema: {
          tags: [type],
          params: ZIdParams,
          ...(connector.account ? { response: { 200: connector.account.response } } : {}),
        },
      },
      (req) => connectionAccount(app.deps, user(req), req.params.id, type) as never,
    );
  } else {
    mountWebhooks(app, type, alias);
  }
}

/** Every definition's aliases, in the registry's order. */
export function mountAliases(app: FastifyInstance, options: { afterConnect: AfterConnect }): void {
  for (const connector of connectors.values()) {
    for (const alias of connector.aliases ?? []) mountAlias(app, connector, alias, options.afterConnect);
  }
}
