// What the Facebook module's services get besides Deps: the real-time emit for UPDATE_INTEGRATION,
// one SSRF-safe fetch for Graph calls and the in-memory caches. Built once per app by facebookDeps(app);
// the webhook receiver and the backfill sweep use the same object.
import { createSafeFetch, type GraphClient, graphClient } from '@leadrelay/connectors';
import type { FastifyInstance } from 'fastify';
import { type Deps, destinationPolicy } from '../../config';
import { INTERACTIVE_TIMEOUT_MS } from '../../delivery/connector-context';
import { AppError } from '../../lib/app-error';
import { type EmitIntegrationUpdate, emitWithState } from '../integrations';
import { createPictureCache, type PictureCache } from './picture-cache';

export interface FacebookDeps extends Deps {
  /** Sends UPDATE_INTEGRATION to the account's browsers (every API process). */
  emitIntegrationUpdate: EmitIntegrationUpdate;
  /** The SSRF-safe fetch Graph calls go through. */
  graphFetch: typeof fetch;
  /** Account and page pictures, 2 hours per id (spec 9). */
  pictures: PictureCache;
}

const built = new WeakMap<FastifyInstance, FacebookDeps>();

/** The module's deps of this app (one per app instance, so caches are shared by its routes and jobs). */
export function facebookDeps(app: FastifyInstance): FacebookDeps {
  const root = app.deps;
  let deps = built.get(app);
  if (deps) return deps;
  deps = {
    ...root,
    emitIntegrationUpdate: emitWithState(root, (accountId, update) =>
      app.realtime.emitToAccount(accountId, 'UPDATE_INTEGRATION', update),
    ),
    graphFetch: createSafeFetch({
      ...destinationPolicy(root.config),
      timeoutMs: INTERACTIVE_TIMEOUT_MS,
    }),
    pictures: createPictureCache(),
  };
  built.set(app, deps);
  return deps;
}

/** A Graph client for this call; OAUTH_NOT_CONFIGURED without the app's id and secret. */
export function graphFor(deps: Pick<FacebookDeps, 'config' | 'graphFetch'>): GraphClient {
  const { appId, appSecret, graphUrl, dialogUrl } = deps.config.facebook;
  if (!appId || !appSecret) throw new AppError('OAUTH_NOT_CONFIGURED');
  return graphClient({
    graphUrl,
    dialogUrl,
    appId,
    appSecret,
    fetch: deps.graphFetch,
    timeoutMs: INTERACTIVE_TIMEOUT_MS,
  });
}
