// What every connector call gets besides auth and settings, in the API and in the worker alike:
// the app's OAuth client and API host for its type (read from the configuration keys its definition
// names), the connection's cache, rotateAuth (a refreshed token is stored once,
// under a lock, so two workers never spend one single-use refresh token) and withLock.
import type { ConnectorContext, ConnectorDefinition, OAuthClient } from '@leadrelay/connectors';
import { PermanentError, sortedKeys } from '@leadrelay/connectors';
import { canonicalJson } from '@leadrelay/shared';
import { eq } from 'drizzle-orm';
import type { AppConfig } from '../config';
import type { Executor } from '../db/client';
import { integrations } from '../db/schema';
import { connectorConfig } from '../lib/connector-config';
import type { AppLocks } from '../lib/locks';
import type { SecretBox } from '../lib/secret-box';
import { connectionCache } from './connection-cache';
import { credentialExpiry, readAuth, sealAuth } from './stored-auth';

export interface RuntimeDeps {
  db: Executor;
  secrets: SecretBox;
  locks: AppLocks;
  config: Pick<AppConfig, 'publicUrl' | 'authHost' | 'crm'>;
}

type Extras = Pick<ConnectorContext<unknown, unknown>, 'oauth' | 'baseUrl' | 'rotateAuth' | 'withLock' | 'cache'>;

/** The app's OAuth client for a connector, from the configuration keys its definition names; undefined when unset. */
export function oauthClientFor(
  config: RuntimeDeps['config'],
  connector: Pick<ConnectorDefinition<unknown, unknown>, 'slug' | 'config' | 'oauth'>,
): OAuthClient | undefined {
  const { oauth } = connector;
  if (!oauth) return undefined;
  const cfg = connectorConfig(config.crm, connector);
  const clientId = cfg[oauth.clientId];
  const clientSecret = cfg[oauth.clientSecret];
  if (typeof clientId !== 'string' || !clientId || typeof clientSecret !== 'string' || !clientSecret) return undefined;
  const base = oauth.callback.base === 'authHost' ? config.authHost : config.publicUrl;
  const tokenUrl = oauth.tokenUrl(cfg);
  return {
    clientId,
    clientSecret,
    authorizeUrl: oauth.authorizeUrl(cfg),
    ...(tokenUrl ? { tokenUrl } : {}),
    redirectUri: `${base}${oauth.callback.path}`,
  };
}

/** The API host of a connector whose host is not per account, as its definition reads it from the configuration. */
export function baseUrlFor(
  config: RuntimeDeps['config'],
  connector: Pick<ConnectorDefinition<unknown, unknown>, 'slug' | 'config' | 'baseUrl'>,
): string | undefined {
  return connector.baseUrl?.(connectorConfig(config.crm, connector));
}

export function runtimeExtras(
  deps: RuntimeDeps,
  connector: ConnectorDefinition<unknown, unknown>,
  integrationId: string,
): Extras {
  const rotateAuth: NonNullable<Extras['rotateAuth']> = (stale, refresh) =>
    deps.locks.auth.withLock(`auth:${integrationId}`, async () => {
      const [row] = await deps.db
        .select({ id: integrations.id, auth: integrations.auth })
        .from(integrations)
        .where(eq(integrations.id, integrationId));
      if (!row) throw new PermanentError('The destination no longer exists');
      const parsed = connector.auth.safeParse(readAuth(deps.secrets, row));
      if (!parsed.success)
        throw new PermanentError('The destination connection is incomplete: reconnect it', { code: 'AUTH' });
      // Someone refreshed while this call waited: use theirs, never spend the new refresh token twice.
      if (canonicalJson(parsed.data) !== canonicalJson(stale)) return parsed.data;
      const next = await refresh(parsed.data);
      await deps.db
        .update(integrations)
        .set({
          auth: sealAuth(deps.secrets, integrationId, next as Record<string, unknown>),
          credentialExpiresAt: credentialExpiry(connector, next as Record<string, unknown>),
          updatedAt: new Date(),
        })
        .where(eq(integrations.id, integrationId));
      return next;
    });
  return {
    oauth: oauthClientFor(deps.config, connector),
    baseUrl: baseUrlFor(deps.config, connector),
    cache: connectionCache(integrationId),
    rotateAuth,
    withLock: (keys, fn) =>
      deps.locks.connector.withLock(
        sortedKeys(keys).map((key) => `${integrationId}:${key}`),
        fn,
      ),
  };
}
