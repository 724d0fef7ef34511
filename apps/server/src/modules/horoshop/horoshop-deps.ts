// What the Horoshop module's services get besides Deps: the engine's event bus (ingest tells the
// worker and the browsers through it) and UPDATE_INTEGRATION for the account's browsers. Built once
// per app by horoshopDeps(app); the routes, the receiver and the poll use the same object. Also the
// one place a connector failure becomes an API error key (HOROSHOP_…).
import {
  type ConnectorContext,
  createSafeFetch,
  type HoroshopAuth,
  type HoroshopContext,
  horoshop,
  horoshopShopWords,
} from '@leadrelay/connectors';
import type { HoroshopSettings } from '@leadrelay/shared';
import type { FastifyInstance } from 'fastify';
import { type Deps, destinationPolicy } from '../../config';
import type { IntegrationRow } from '../../db/schema';
import { buildConnectorContext, INTERACTIVE_TIMEOUT_MS, reasonOf } from '../../delivery/connector-context';
import { runtimeExtras } from '../../delivery/connector-runtime';
import { AppError } from '../../lib/app-error';
import type { EngineEventBus } from '../../lib/events';
import { storableText } from '../../lib/storable-text';
import { type EmitIntegrationUpdate, emitWithState } from '../integrations';

export const TYPE = 'horoshop';

export interface HoroshopDeps extends Deps {
  events: EngineEventBus;
  emitIntegrationUpdate: EmitIntegrationUpdate;
}

const built = new WeakMap<FastifyInstance, HoroshopDeps>();

export function horoshopDeps(app: FastifyInstance): HoroshopDeps {
  let deps = built.get(app);
  if (deps) return deps;
  deps = {
    ...app.deps,
    events: app.events,
    emitIntegrationUpdate: emitWithState(app.deps, (accountId, update) =>
      app.realtime.emitToAccount(accountId, 'UPDATE_INTEGRATION', update),
    ),
  };
  built.set(app, deps);
  return deps;
}

/** A ctx for credentials not stored yet (the connect form's): no rotateAuth, renewals stay in memory. */
export function draftContext(deps: Deps, auth: HoroshopAuth, shopUrl: string, integrationId: string): HoroshopContext {
  return {
    auth,
    settings: { shopUrl },
    fetch: createSafeFetch({ ...destinationPolicy(deps.config), timeoutMs: INTERACTIVE_TIMEOUT_MS }),
    logger: deps.log.child({ integrationId, connector: TYPE }),
    signal: AbortSignal.timeout(INTERACTIVE_TIMEOUT_MS),
  };
}

/**
 * The ctx of a stored connection: its sealed credentials opened, and rotateAuth, so a renewed token
 * is stored once across every worker. `timeoutMs` bounds each request; the whole run ends at `signal`.
 */
export function storedContext(
  deps: Deps,
  row: IntegrationRow,
  options: { timeoutMs?: number; signal?: AbortSignal } = {},
): HoroshopContext {
  const connector = horoshop as unknown as Parameters<typeof runtimeExtras>[1];
  return buildConnectorContext(horoshop, row, {
    secrets: deps.secrets,
    extras: runtimeExtras(deps, connector, row.id) as Partial<ConnectorContext<unknown, unknown>>,
    policy: destinationPolicy(deps.config),
    logger: deps.log.child({ integrationId: row.id, connector: TYPE }),
    timeoutMs: options.timeoutMs,
    signal: options.signal,
  }) as ConnectorContext<HoroshopAuth, HoroshopSettings>;
}

/**
 * The API error of a failed call to the shop: its key says what the user can do (fix the login, the
 * address, wait), its message is the shop's own words when it gave any.
 */
export function horoshopError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  const message = horoshopShopWords(error) ?? reasonOf(error);
  switch (code) {
    case 'AUTH':
      return new AppError('HOROSHOP_AUTH_FAILED', { message });
    case 'TOKEN_EXPIRED':
      return new AppError('HOROSHOP_TOKEN_EXPIRED', { message });
    case 'NOT_A_SHOP':
      return new AppError('HOROSHOP_NOT_A_SHOP', {
        message,
        errors: [{ field: 'domain', code: 'HOROSHOP_NOT_A_SHOP' }],
      });
    case 'URL_NOT_ALLOWED':
      return new AppError('HOROSHOP_DOMAIN_INVALID', {
        message,
        errors: [{ field: 'domain', code: 'HOROSHOP_DOMAIN_INVALID' }],
      });
    case 'REFUSED':
      return new AppError('HOROSHOP_REFUSED', { message });
    case 'NOT_CONNECTED':
      return new AppError('INTEGRATION_NOT_CONNECTED');
    default:
      // Network, timeout, 429, 5xx, EXCEPTION: the shop may answer later.
      return new AppError('HOROSHOP_UNAVAILABLE', { message });
  }
}

/**
 * What a screen shows of a failure: the key, and the shop's own words (if any) after a colon; kept
 * as the poll's last error, so storable (the shop's words are text from outside, ADR 009).
 */
export function horoshopReason(error: unknown): string {
  const app = horoshopError(error);
  const words = horoshopShopWords(error);
  return storableText((words ? `${app.code}: ${words}` : app.code).slice(0, 300));
}
