// What the source machinery gets besides Deps: UPDATE_INTEGRATION for the account's browsers when a
// poll marks a source broken or mended. Built once per app; the routes, receivers and polls share it.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../config';
import { type EmitIntegrationUpdate, emitWithState } from './integration-health';

export interface SourceDeps extends Deps {
  emitIntegrationUpdate: EmitIntegrationUpdate;
}

const built = new WeakMap<FastifyInstance, SourceDeps>();

export function sourceDeps(app: FastifyInstance): SourceDeps {
  let deps = built.get(app);
  if (deps) return deps;
  deps = {
    ...app.deps,
    emitIntegrationUpdate: emitWithState(app.deps, (accountId, update) =>
      app.realtime.emitToAccount(accountId, 'UPDATE_INTEGRATION', update),
    ),
  };
  built.set(app, deps);
  return deps;
}
