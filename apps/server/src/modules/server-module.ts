// What a server module hands the app (issue 29): each module's door exports one descriptor, made
// with defineModule; app-modules.ts lists them and app.ts wires them all with one loop. A module
// says only what it has: its routes, periodic tasks, environment settings, seeds, what the delivery
// worker asks of it, and what it starts and stops. Tenant-data cleaners are listed apart, in the
// order they must run (app-modules.ts).
import { type ConnectorDefinition, connectors } from '@leadrelay/connectors';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { AppConfig, Deps } from '../config';
import type { Db } from '../db/client';
import type { PeriodicTask } from '../delivery/periodic';
import type { DeliveryEnricher, DeliveryRecorder, DeliveryWorker } from '../delivery/worker';
import type { ModuleSettings } from '../lib/env-settings';
import type { EngineEvents } from '../lib/events';
import type { PreviewRoute } from '../plugins/web';

/** What a module's setup gets: the app being built and buildApp's options, of which it reads its own. */
export interface ModuleContext<O = unknown> {
  app: FastifyInstance;
  deps: Deps;
  options: O;
  /** This process's delivery worker. */
  worker: DeliveryWorker;
  /** This process runs the worker's loop and the periodic tasks (ROLE worker or all, with the worker on). */
  runsWorker: boolean;
}

/** An event without arguments, which other processes hear of through NOTIFY (lib/pg-bus.ts). */
export type WakeEvent = { [K in keyof EngineEvents]: EngineEvents[K] extends [] ? K : never }[keyof EngineEvents];

/** What a module gives: on its descriptor when it needs nothing to make them, else from setup (both count). */
export interface ModuleParts {
  /** Route plugins, registered one by one (app.register) in this order, where the API is served. */
  routes?: FastifyPluginAsync[];
  /** Periodic tasks (delivery/periodic.ts), run where the worker runs. */
  tasks?: PeriodicTask[];
  /** Pages of the web app whose links show a preview (plugins/web.ts). */
  previews?: PreviewRoute[];
  /** Stops what setup made when the app closes, before the periodic tasks stop. */
  stop?: () => Promise<void>;
  /** Once the app is ready, in a process that serves the API (ROLE api or all). */
  onApiReady?: () => Promise<void>;
  /**
   * Work of its own beside the delivery worker, where the worker runs: started after the periodic
   * tasks, stopped after them, and woken when any process emits `wakeOn` (as the worker is by
   * deliveries.due).
   */
  background?: { start(): void; stop(): Promise<void>; wake(): void; wakeOn: WakeEvent };
}

/**
 * What a module adds to deliveries and keeps of their results, for every connector that declares
 * the context by its name (ConnectorDefinition.deliveryContext; ADR 013 "Delivery contexts").
 */
export interface DeliveryContextProvider {
  enrich: DeliveryEnricher;
  record?: DeliveryRecorder;
}

/** What the delivery worker asks of a module (docs/adr/002-delivery-engine.md). */
export interface DeliveryParts {
  /** Bookkeeping by destination type, made from what the connectors declare (their records). */
  recorders?: Record<string, DeliveryRecorder>;
  /** Delivery contexts by name: which destination types use one is the connectors' to say. */
  contexts?: Record<string, DeliveryContextProvider>;
}

export interface ServerModule<O = unknown, E extends object = object> extends ModuleParts {
  name: string;
  /** Its environment keys and its part of Env (lib/env-settings.ts). */
  // biome-ignore lint/suspicious/noExplicitAny: any shape of keys; the module's own was checked where it was declared.
  settings?: ModuleSettings<any, E>;
  /** Its routes are served by every process, workers too (/metrics), before the API's. */
  everyRole?: boolean;
  /** At every start, before anything else, in list order; idempotent. */
  seed?: (db: Db) => Promise<unknown>;
  /** For the delivery worker; `db` is the worker's pool. */
  delivery?: (ctx: { db: Db; config: AppConfig }) => DeliveryParts;
  /** Once per app, in list order, after the delivery worker is made: what needs the app. */
  setup?: (ctx: ModuleContext<O>) => ModuleParts | Promise<ModuleParts>;
}

export function defineModule<O = unknown, E extends object = object>(module: ServerModule<O, E>): ServerModule<O, E> {
  return module;
}

/** A module as app.ts wires it: what it declares joined to what its setup made. */
export interface WiredModule extends Omit<ModuleParts, 'routes' | 'tasks' | 'previews'> {
  name: string;
  everyRole: boolean;
  routes: FastifyPluginAsync[];
  tasks: PeriodicTask[];
  previews: PreviewRoute[];
}

/** Runs each module's setup, in list order, and joins its parts to those its descriptor declares. */
export async function setupModules<O>(
  modules: readonly ServerModule<O>[],
  ctx: ModuleContext<O>,
): Promise<WiredModule[]> {
  const wired: WiredModule[] = [];
  for (const module of modules) {
    const made = (await module.setup?.(ctx)) ?? {};
    wired.push({
      name: module.name,
      everyRole: module.everyRole ?? false,
      stop: made.stop ?? module.stop,
      onApiReady: made.onApiReady ?? module.onApiReady,
      background: made.background ?? module.background,
      routes: [...(module.routes ?? []), ...(made.routes ?? [])],
      tasks: [...(module.tasks ?? []), ...(made.tasks ?? [])],
      previews: [...(module.previews ?? []), ...(made.previews ?? [])],
    });
  }
  return wired;
}

/**
 * What the delivery worker asks of the modules, by destination type: the modules' recorders, and
 * each connector's declared delivery context from the module that provides it (its recorder runs
 * after the type's own). No module names a destination type for this.
 */
export function deliveryParts(
  modules: readonly Pick<ServerModule, 'delivery'>[],
  ctx: { db: Db; config: AppConfig },
  definitions: Iterable<Pick<ConnectorDefinition, 'slug' | 'deliveryContext'>> = connectors.values(),
): { recorders: Record<string, DeliveryRecorder>; enrichers: Record<string, DeliveryEnricher> } {
  const recorders = new Map<string, DeliveryRecorder>();
  const contexts = new Map<string, DeliveryContextProvider>();
  for (const module of modules) {
    const made = module.delivery?.(ctx);
    for (const [type, recorder] of Object.entries(made?.recorders ?? {})) recorders.set(type, recorder);
    for (const [name, provider] of Object.entries(made?.contexts ?? {})) contexts.set(name, provider);
  }
  const enrichers = new Map<string, DeliveryEnricher>();
  for (const definition of definitions) {
    const provider = definition.deliveryContext ? contexts.get(definition.deliveryContext) : undefined;
    if (!provider) continue;
    enrichers.set(definition.slug, provider.enrich);
    const own = recorders.get(definition.slug);
    const { record } = provider;
    if (record) {
      recorders.set(
        definition.slug,
        own
          ? async (tx, delivery, result) => {
              await own(tx, delivery, result);
              await record(tx, delivery, result);
            }
          : record,
      );
    }
  }
  // Null-prototype maps for the worker: a destination type is data, never a member name.
  return {
    recorders: Object.assign(Object.create(null), Object.fromEntries(recorders)),
    enrichers: Object.assign(Object.create(null), Object.fromEntries(enrichers)),
  };
}
