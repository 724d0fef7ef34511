// What every connector call gets besides auth and settings, in the API and in the worker alike:
// the app's OAuth client and API host for its type, rotateAuth (a refreshed token is stored once,
// under a lock, so two workers never spend one single-use refresh token) and withLock.
import type { ConnectorContext, ConnectorDefinition, OAuthClient } from '@leadrelay/connectors';
import { PermanentError, sortedKeys } from '@leadrelay/connectors';
import { canonicalJson } from '@leadrelay/shared';
import { eq } from 'drizzle-orm';
import type { AppConfig } from '../../config';
import type { Executor } from '../../db/client';
import { integrations } from '../../db/schema';
import type { AppLocks } from '../../lib/locks';
import type { SecretBox } from '../../lib/secret-box';
import { readAuth, sealAuth } from './stored-auth';

export interface RuntimeDeps {
  db: Executor;
  secrets: SecretBox;
  locks: AppLocks;
  config: Pick<AppConfig, 'publicUrl' | 'authHost' | 'crm'>;
}

type Extras = Pick<ConnectorContext<unknown, unknown>, 'oauth' | 'baseUrl' | 'rotateAuth' | 'withLock'>;

/** The app's OAuth client for a type, or undefined when the operator configured none. */
export function oauthClientFor(config: RuntimeDeps['config'], slug: string): OAuthClient | undefined {
  if (slug === 'amocrm') {
    const { clientId, clientSecret, oauthUrl } = config.crm.amocrm;
    if (!clientId || !clientSecret) return undefined;
    return { clientId, clientSecret, authorizeUrl: oauthUrl, redirectUri: `${config.publicUrl}/api/amocrm/callback` };
  }
  if (slug === 'pipedrive') {
    const { clientId, clientSecret, oauthUrl } = config.crm.pipedrive;
    if (!clientId || !clientSecret) return undefined;
    return {
      clientId,
      clientSecret,
      authorizeUrl: `${oauthUrl}/oauth/authorize`,
      tokenUrl: `${oauthUrl}/oauth/token`,
      redirectUri: `${config.authHost}/pipedrive/callback`,
    };
  }
  return undefined;
}

/** The API host of a type whose host is not per account (SendPulse; Pipedrive API-token connections). */
export function baseUrlFor(config: RuntimeDeps['config'], slug: string): string | undefined {
  if (slug === 'sendpulse') return config.crm.sendpulse.apiUrl;
  if (slug === 'pipedrive') return config.crm.pipedrive.apiUrl;
  return undefined;
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
        .set({ auth: sealAuth(deps.secrets, integrationId, next as Record<string, unknown>), updatedAt: new Date() })
        .where(eq(integrations.id, integrationId));
      return next;
    });
  return {
    oauth: oauthClientFor(deps.config, connector.slug),
    baseUrl: baseUrlFor(deps.config, connector.slug),
    rotateAuth,
    withLock: (keys, fn) =>
      deps.locks.connector.withLock(
        sortedKeys(keys).map((key) => `${integrationId}:${key}`),
        fn,
      ),
  };
}
