// Pipedrive's own routes (spec 7 "Pipedrive"): the OAuth flow (state → start → callback → connect),
// the API-token connection, field/stage/activity-type lists and webhooks at Pipedrive. Every
// integration id must be the actor's own integration of type pipedrive, else 404.
import {
  type ConnectorDefinition,
  createSafeFetch,
  type OAuthClient,
  PermanentError,
  type PipedriveAuth,
  pipedrive,
  pipedriveAuthorizeUrl,
  pipedriveExchangeCode,
} from '@leadrelay/connectors';
import type {
  Locale,
  PipedriveActivityType,
  PipedriveField,
  PipedrivePipeline,
  PipedriveWebhook,
} from '@leadrelay/shared';
import { and, eq } from 'drizzle-orm';
import { type Deps, hostAllowed } from '../../config';
import type { Executor } from '../../db/client';
import { type IntegrationRow, integrations, type UserRow } from '../../db/schema';
import { readOAuthState, screenUrl, signOAuthState } from '../../lib/oauth-state';
import { AppError } from '../../plugins/errors';
import { connectorContext, INTERACTIVE_TIMEOUT_MS, reasonOf } from '../integrations/connector-context';
import { oauthClientFor } from '../integrations/connector-runtime';
import { ownIntegrationOfType } from '../integrations/integrations.service';
import { sealAuth } from '../integrations/stored-auth';

type Actor = Pick<UserRow, 'id'>;

const connector = pipedrive as unknown as ConnectorDefinition<unknown, unknown>;

const ownPipedrive = (db: Executor, actor: Actor, id: string) => ownIntegrationOfType(db, actor, id, 'pipedrive');

// ---- OAuth ----

/** A signed, 20-minute state binding the account, the integration and the user's language. */
export async function createState(
  deps: Deps,
  actor: Actor,
  integrationId: string,
  locale: Locale = 'uk',
): Promise<{ state: string }> {
  const row = await ownPipedrive(deps.db, actor, integrationId);
  return {
    state: await signOAuthState(deps.config.jwtSecret, 'pipedrive', {
      accountId: actor.id,
      integrationId: row.id,
      locale,
    }),
  };
}

const readState = (deps: Deps, state: string | undefined) => readOAuthState(deps.config.jwtSecret, 'pipedrive', state);

/** The state's integration, when the state is good and the caller's own. */
async function stateRow(deps: Deps, actor: Actor, state: string): Promise<IntegrationRow> {
  const read = await readState(deps, state);
  if (!read?.integrationId || read.accountId !== actor.id) throw new AppError('OAUTH_STATE_INVALID');
  try {
    return await ownPipedrive(deps.db, actor, read.integrationId);
  } catch {
    throw new AppError('OAUTH_STATE_INVALID');
  }
}

function oauthClient(deps: Deps): OAuthClient {
  const client = oauthClientFor(deps.config, 'pipedrive');
  if (!client) throw new AppError('OAUTH_NOT_CONFIGURED');
  return client;
}

export async function startAuth(deps: Deps, actor: Actor, state: string): Promise<{ authUrl: string }> {
  const oauth = oauthClient(deps);
  await stateRow(deps, actor, state);
  return { authUrl: pipedriveAuthorizeUrl(oauth, state) };
}

/** Where the browser goes back to from Pipedrive's consent page: the web app's connect screen. */
export async function callbackLocation(
  deps: Deps,
  query: { code?: string; state?: string; error?: string },
): Promise<string> {
  const read = await readState(deps, query.state);
  const url = new URL(screenUrl(deps.config.publicUrl, read?.locale ?? 'uk', '/admin/integrations/pipedrive/connect'));
  if (!query.state || !read) {
    url.searchParams.set('error', 'OAUTH_STATE_INVALID');
  } else if (query.error || !query.code) {
    url.searchParams.set('error', 'OAUTH_EXCHANGE_FAILED');
  } else {
    url.searchParams.set('code', query.code);
    url.searchParams.set('state', query.state);
  }
  return url.toString();
}

const interactiveFetch = (deps: Deps) =>
  createSafeFetch({ allowPrivate: deps.config.allowPrivateDestinations, timeoutMs: INTERACTIVE_TIMEOUT_MS });

/** api_domain must name a host the operator allows (and https unless private destinations are on). */
function checkedDomain(deps: Deps, apiDomain: string): string {
  let url: URL;
  try {
    url = new URL(apiDomain);
  } catch {
    throw new AppError('CRM_HOST_NOT_ALLOWED');
  }
  const schemeOk = url.protocol === 'https:' || (url.protocol === 'http:' && deps.config.allowPrivateDestinations);
  if (!schemeOk || url.username || url.password || !hostAllowed(deps.config.crm.pipedrive.hosts, url.host)) {
    throw new AppError('CRM_HOST_NOT_ALLOWED');
  }
  return url.origin;
}

async function storeAuth(deps: Deps, row: IntegrationRow, auth: PipedriveAuth): Promise<void> {
  await deps.db
    .update(integrations)
    .set({
      auth: sealAuth(deps.secrets, row.id, auth as unknown as Record<string, unknown>),
      status: 'ok',
      statusReason: null,
      updatedAt: new Date(),
    })
    .where(and(eq(integrations.id, row.id), eq(integrations.accountId, row.accountId)));
}

export type ConnectBody = { code: string; state: string } | { integrationId: string; apiToken: string };

export async function connect(
  deps: Deps,
  actor: Actor,
  body: ConnectBody,
): Promise<{ integrationId: string; type: 'pipedrive' }> {
  if ('code' in body) {
    const row = await stateRow(deps, actor, body.state);
    const oauth = oauthClient(deps);
    let tokens: Awaited<ReturnType<typeof pipedriveExchangeCode>>;
    try {
      tokens = await pipedriveExchangeCode(interactiveFetch(deps), oauth, body.code);
    } catch (error) {
      deps.log.warn({ integrationId: row.id, reason: reasonOf(error) }, 'pipedrive code exchange failed');
      throw new AppError('OAUTH_EXCHANGE_FAILED');
    }
    const apiDomain = checkedDomain(deps, tokens.apiDomain);
    await storeAuth(deps, row, {
      kind: 'oauth',
      accessToken: tokens.accessToken,
      refreshToken: tokens.refreshToken,
      expiresAt: tokens.expiresAt,
      apiDomain,
    });
    return { integrationId: row.id, type: 'pipedrive' };
  }

  const row = await ownPipedrive(deps.db, actor, body.integrationId);
  const auth: PipedriveAuth = {
    kind: 'token',
    apiToken: body.apiToken,
    apiDomain: deps.config.crm.pipedrive.apiUrl.replace(/\/+$/, ''),
  };
  // Checked in memory first (GET users/me); nothing is stored unless Pipedrive accepts the token.
  const candidate = { ...row, auth: sealAuth(deps.secrets, row.id, auth as unknown as Record<string, unknown>) };
  try {
    await pipedrive.testConnection!(connectorContext(deps, connector, candidate) as never);
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError('CONNECTION_FAILED', { message: reasonOf(error) });
  }
  await storeAuth(deps, row, auth);
  return { integrationId: row.id, type: 'pipedrive' };
}

// ---- Lists and webhooks ----

async function call<T>(deps: Deps, actor: Actor, id: string, fn: (ctx: never) => Promise<T>): Promise<T> {
  const row = await ownPipedrive(deps.db, actor, id);
  const ctx = connectorContext(deps, connector, row);
  try {
    return await fn(ctx as never);
  } catch (error) {
    if (error instanceof AppError) throw error;
    // Pipedrive refused the request itself (a 4xx other than auth): CRM_REQUEST_FAILED with its reason.
    if (error instanceof PermanentError && error.code !== 'AUTH' && error.httpStatus) {
      throw new AppError('CRM_REQUEST_FAILED', { message: reasonOf(error) });
    }
    throw new AppError('CONNECTION_FAILED', { message: reasonOf(error) });
  }
}

const loaders = pipedrive.loaders!;

export type FieldList = 'dealFields' | 'personFields' | 'organizationFields';

export const listFields = (deps: Deps, actor: Actor, id: string, list: FieldList) =>
  call(deps, actor, id, (ctx) => loaders[list]!(ctx) as Promise<PipedriveField[]>);

export const listStages = (deps: Deps, actor: Actor, id: string) =>
  call(deps, actor, id, (ctx) => loaders.stages!(ctx) as Promise<PipedrivePipeline[]>);

export const listActivityTypes = (deps: Deps, actor: Actor, id: string) =>
  call(deps, actor, id, (ctx) => loaders.activityTypes!(ctx) as Promise<PipedriveActivityType[]>);

const webhooks = pipedrive.webhooks!;

export const listWebhooks = (deps: Deps, actor: Actor, id: string): Promise<PipedriveWebhook[]> =>
  call(deps, actor, id, (ctx) => webhooks.list(ctx));

export const createWebhook = (
  deps: Deps,
  actor: Actor,
  id: string,
  body: { url: string; event: string; name?: string },
): Promise<PipedriveWebhook> => call(deps, actor, id, (ctx) => webhooks.create(ctx, body));

export async function deleteWebhook(deps: Deps, actor: Actor, id: string, webhookId: string) {
  await call(deps, actor, id, (ctx) => webhooks.remove(ctx, webhookId));
  return { success: true as const };
}
