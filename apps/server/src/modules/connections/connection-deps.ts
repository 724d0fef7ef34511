// What the account connections' services get besides Deps: the real-time emit for UPDATE_INTEGRATION,
// one SSRF-safe fetch for the services' calls and the in-memory caches. Built once per app by
// connectionDeps(app); the receiver, the processor and the backfill use the same object. And the
// connectors that declare connections (kit/connection.ts), with the call each service call gets.
import { type ConnectionCall, type ConnectorConnections, connectors, createSafeFetch } from '@leadrelay/connectors';
import type { FastifyInstance } from 'fastify';
import { type Deps, destinationPolicy } from '../../config';
import { INTERACTIVE_TIMEOUT_MS } from '../../delivery/connector-context';
import { AppError } from '../../lib/app-error';
import { connectorConfig } from '../../lib/connector-config';
import { type EmitIntegrationUpdate, emitWithState } from '../integrations';
import { createPictureCache, type PictureCache } from './picture-cache';

export interface ConnectionDeps extends Deps {
  /** Sends UPDATE_INTEGRATION to the account's browsers (every API process). */
  emitIntegrationUpdate: EmitIntegrationUpdate;
  /** The SSRF-safe fetch the services' calls go through. */
  serviceFetch: typeof fetch;
  /** People's and assets' pictures, 2 hours per id (spec 9). */
  pictures: PictureCache;
  /** What an action keeps per connector and configuration while the process lives (the last test lead per form). */
  memory: Map<string, Map<string, string>>;
}

/** A connector that declares an account connection. */
export interface ConnectionConnector {
  type: string;
  spec: ConnectorConnections;
}

const built = new WeakMap<FastifyInstance, ConnectionDeps>();

/** The module's deps of this app (one per app instance, so caches are shared by its routes and jobs). */
export function connectionDeps(app: FastifyInstance): ConnectionDeps {
  const root = app.deps;
  let deps = built.get(app);
  if (deps) return deps;
  deps = {
    ...root,
    emitIntegrationUpdate: emitWithState(root, (accountId, update) =>
      app.realtime.emitToAccount(accountId, 'UPDATE_INTEGRATION', update),
    ),
    serviceFetch: createSafeFetch({
      ...destinationPolicy(root.config),
      timeoutMs: INTERACTIVE_TIMEOUT_MS,
    }),
    pictures: createPictureCache(),
    memory: new Map(),
  };
  built.set(app, deps);
  return deps;
}

/** Every connector that declares connections. */
export function connectionConnectors(): ConnectionConnector[] {
  return [...connectors.values()].flatMap((c) => (c.connections ? [{ type: c.slug, spec: c.connections }] : []));
}

/** The connector of this type that declares connections (a type named in a row). */
export function connectionConnector(type: string): ConnectionConnector {
  const spec = connectors.get(type)?.connections;
  if (!spec) throw new Error(`${type} declares no connections`);
  return { type, spec };
}

/** The connector's configuration, by the names its definition declares. */
export function configOf(deps: Pick<Deps, 'config'>, type: string) {
  const def = connectors.get(type);
  return def ? connectorConfig(deps.config.crm, def) : {};
}

export const isConfigured = (deps: Pick<Deps, 'config'>, c: ConnectionConnector) =>
  c.spec.configured(configOf(deps, c.type));

/** A call to the connector's service; OAUTH_NOT_CONFIGURED without the app's client. */
export function callFor(deps: Pick<ConnectionDeps, 'config' | 'serviceFetch'>, c: ConnectionConnector): ConnectionCall {
  const config = configOf(deps, c.type);
  if (!c.spec.configured(config)) throw new AppError('OAUTH_NOT_CONFIGURED');
  return { config, fetch: deps.serviceFetch, timeoutMs: INTERACTIVE_TIMEOUT_MS };
}

/** Where the connector's service sends its events (its receiver answers the verification GET too). */
export const receiverUrl = (deps: Pick<Deps, 'config'>, c: ConnectionConnector) =>
  `${deps.config.publicUrl}${c.spec.inbound.receiver.path}`;
