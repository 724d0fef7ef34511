// amoCRM's own routes (spec 7 "amoCRM"): the OAuth connect (consent URL, callback storing sealed
// tokens), the account's users, pipelines and fields through the connector, and backups of an
// integration's settings with the account's structure. Every call is for the actor's own amoCRM
// integration; anything else answers INTEGRATION_NOT_FOUND.
import {
  amoAuthorizeUrl,
  amoExchangeCode,
  type ConnectorDefinition,
  createSafeFetch,
  getConnector,
} from '@leadrelay/connectors';
import type { AmoBackup, AmoFields, AmoPipeline, AmoUser, Locale } from '@leadrelay/shared';
import { and, count, desc, eq, notInArray } from 'drizzle-orm';
import { type Deps, hostAllowed } from '../../config';
import type { Executor } from '../../db/client';
import { type AmocrmBackupRow, amocrmBackups, type IntegrationRow, integrations, type UserRow } from '../../db/schema';
import { isBoundToBrowser, readOAuthState, screenUrl, signOAuthState } from '../../lib/oauth-state';
import { AppError } from '../../plugins/errors';
import { connectorContext, INTERACTIVE_TIMEOUT_MS, reasonOf } from '../integrations/connector-context';
import { oauthClientFor } from '../integrations/connector-runtime';
import { ownIntegrationOfType } from '../integrations/integrations.service';
import { sealAuth } from '../integrations/stored-auth';

type Actor = Pick<UserRow, 'id'>;

export const AMOCRM_BACKUPS_KEPT = 20;
/** A host name with an optional port: nothing a URL could smuggle a path, user or scheme through. */
const HOST = /^[a-z0-9](?:[a-z0-9.-]{0,251}[a-z0-9])?(?::\d{1,5})?$/;

const ownAmoRow = (db: Executor, actor: Actor, id: string) => ownIntegrationOfType(db, actor, id, 'amocrm');

function amoConnector(): ConnectorDefinition<unknown, unknown> {
  const connector = getConnector('amocrm');
  if (!connector) throw new AppError('OPERATION_NOT_SUPPORTED');
  return connector;
}

function oauthOf(deps: Deps) {
  const oauth = oauthClientFor(deps.config, 'amocrm');
  if (!oauth) throw new AppError('OAUTH_NOT_CONFIGURED');
  return oauth;
}

// ---- Connect ----

export async function connectUrl(
  deps: Deps,
  actor: Actor,
  integrationId: string,
  locale: Locale = 'uk',
): Promise<{ url: string; state: string }> {
  const oauth = oauthOf(deps);
  const row = await ownAmoRow(deps.db, actor, integrationId);
  // Signed and short-lived, bound to the account and the integration: the callback trusts nothing else.
  const state = await signOAuthState(deps.config.jwtSecret, 'amocrm', {
    accountId: actor.id,
    integrationId: row.id,
    locale,
  });
  return { url: amoAuthorizeUrl(oauth, state), state };
}

export interface CallbackQuery {
  code?: string;
  state?: string;
  referer?: string;
}

/** The OAuth return. Always a redirect to the integration's screen, with ?connected=1 or ?error=CODE. */
export async function handleCallback(deps: Deps, query: CallbackQuery, binding?: string): Promise<string> {
  const state = await readOAuthState(deps.config.jwtSecret, 'amocrm', query.state);
  if (!state?.integrationId || !isBoundToBrowser(query.state, binding)) {
    return `${screenUrl(deps.config.publicUrl, 'uk', '/admin/integrations/amocrm')}?error=OAUTH_STATE_INVALID`;
  }
  const target = { accountId: state.accountId, integrationId: state.integrationId };
  const back = screenUrl(deps.config.publicUrl, state.locale, `/admin/integrations/amocrm/${target.integrationId}`);
  try {
    await completeConnect(deps, target, query);
    return `${back}?connected=1`;
  } catch (error) {
    if (error instanceof AppError) return `${back}?error=${error.code}`;
    throw error;
  }
}

async function completeConnect(
  deps: Deps,
  target: { accountId: string; integrationId: string },
  query: CallbackQuery,
): Promise<void> {
  const row = await ownAmoRow(deps.db, { id: target.accountId }, target.integrationId);
  const oauth = oauthOf(deps);
  // The account host comes from the browser: check it before our client secret goes anywhere.
  const referer = (query.referer ?? '').trim().toLowerCase();
  if (!HOST.test(referer) || !hostAllowed(deps.config.crm.amocrm.hosts, referer)) {
    throw new AppError('CRM_HOST_NOT_ALLOWED');
  }
  if (!query.code) throw new AppError('OAUTH_EXCHANGE_FAILED');
  let auth: Record<string, unknown>;
  try {
    const fetch = createSafeFetch({
      allowPrivate: deps.config.allowPrivateDestinations,
      timeoutMs: INTERACTIVE_TIMEOUT_MS,
    });
    auth = {
      ...(await amoExchangeCode(
        { fetch, oauth, signal: AbortSignal.timeout(INTERACTIVE_TIMEOUT_MS) },
        referer,
        query.code,
      )),
    };
  } catch (error) {
    deps.log.warn({ integrationId: row.id, reason: reasonOf(error) }, 'amoCRM code exchange failed');
    throw new AppError('OAUTH_EXCHANGE_FAILED');
  }
  await deps.db
    .update(integrations)
    .set({ auth: sealAuth(deps.secrets, row.id, auth), status: 'ok', statusReason: null, updatedAt: new Date() })
    .where(and(eq(integrations.id, row.id), eq(integrations.accountId, target.accountId)));
}

// ---- The account's structure, through the connector ----

type AmoList = 'amoUsers' | 'pipelines' | 'customFields' | 'parser';

async function loadFor(deps: Deps, row: IntegrationRow, list: AmoList): Promise<unknown> {
  const connector = amoConnector();
  const loader = connector.loaders?.[list];
  if (!loader) throw new AppError('OPERATION_NOT_SUPPORTED');
  const ctx = connectorContext(deps, connector, row);
  try {
    return await loader(ctx);
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError('CONNECTION_FAILED', { message: reasonOf(error) });
  }
}

export async function load(deps: Deps, actor: Actor, id: string, list: AmoList): Promise<unknown> {
  return loadFor(deps, await ownAmoRow(deps.db, actor, id), list);
}

// ---- Backups ----

function toApi(row: AmocrmBackupRow): AmoBackup {
  return { _id: row.id, integrationId: row.integrationId, createdAt: row.createdAt.toISOString(), data: row.data };
}

export async function createBackup(deps: Deps, actor: Actor, integrationId: string): Promise<AmoBackup> {
  const row = await ownAmoRow(deps.db, actor, integrationId);
  // One after another: amoCRM allows 7 requests per second, and a refresh in the first serves the rest.
  const pipelines = (await loadFor(deps, row, 'pipelines')) as AmoPipeline[];
  const users = (await loadFor(deps, row, 'amoUsers')) as AmoUser[];
  const fields = (await loadFor(deps, row, 'customFields')) as AmoFields;
  return deps.db.transaction(async (tx) => {
    const [created] = await tx
      .insert(amocrmBackups)
      .values({
        accountId: actor.id,
        integrationId: row.id,
        data: { settings: row.settings, pipelines, users, fields },
      })
      .returning();
    const kept = tx
      .select({ id: amocrmBackups.id })
      .from(amocrmBackups)
      .where(eq(amocrmBackups.integrationId, row.id))
      .orderBy(desc(amocrmBackups.createdAt), desc(amocrmBackups.id))
      .limit(AMOCRM_BACKUPS_KEPT);
    await tx
      .delete(amocrmBackups)
      .where(and(eq(amocrmBackups.integrationId, row.id), notInArray(amocrmBackups.id, kept)));
    return toApi(created!);
  });
}

export async function listBackups(
  db: Executor,
  actor: Actor,
  integrationId: string,
): Promise<{ data: AmoBackup[]; total: number }> {
  const row = await ownAmoRow(db, actor, integrationId);
  const where = and(eq(amocrmBackups.integrationId, row.id), eq(amocrmBackups.accountId, actor.id));
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(amocrmBackups)
      .where(where)
      .orderBy(desc(amocrmBackups.createdAt), desc(amocrmBackups.id))
      .limit(AMOCRM_BACKUPS_KEPT),
    db.select({ n: count() }).from(amocrmBackups).where(where),
  ]);
  return { data: rows.map(toApi), total: Number(total?.n ?? 0) };
}
