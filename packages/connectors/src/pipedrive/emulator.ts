// A stateful fake of Pipedrive for tests and the local demo: OAuth (authorize, token, refresh, with
// api_domain = this emulator), API-token auth, the v1 and v2 calls the connector makes in Pipedrive's
// {success, data, additional_data} envelope, a rolling 2-second burst limiter answering 429 with
// x-ratelimit-* headers, webhooks posted to subscribers (v2 change.deal/change.lead), fault and latency switches, a request log (in-process and under /__emulator).
// This entry holds the runtime and wires the parts: emulator-gate, emulator-oauth, and one file per
// resource of the data API (account, fields, pipelines, persons, deals, activities, webhooks).
import { createHash, randomBytes } from 'node:crypto';
import Fastify from 'fastify';
import { createEmulatorKit, listenEmulator, registerControlRoutes, slidingWindow } from '../kit/emulator-kit';
import { registerAccountRoutes } from './emulator-account';
import { registerActivityRoutes, registerNoteRoutes } from './emulator-activities';
import { createApi } from './emulator-api';
import { registerDealRoutes, registerLeadRoutes } from './emulator-deals';
import { registerFieldRoutes } from './emulator-fields';
import { registerErrorHandler, registerGate } from './emulator-gate';
import { mint, registerOAuthRoutes } from './emulator-oauth';
import { registerOrganizationRoutes, registerPersonRoutes } from './emulator-persons';
import { registerPipelineRoutes } from './emulator-pipelines';
import {
  clearStore,
  type EmulatedCall,
  type EmulatorRecords,
  emptyStore,
  type PipedriveFault,
  type PipedriveRuntime,
  recordsOf,
  type SentPipedriveWebhook,
  type V1PagingShape,
} from './emulator-state';
import { registerWebhookRoutes } from './emulator-webhooks';

export type { EmulatedCall, PipedriveFault, SentPipedriveWebhook, V1PagingShape } from './emulator-state';
export { PIPEDRIVE_SEED } from './emulator-state';

export interface PipedriveEmulatorOptions {
  port?: number;
  host?: string;
  clientId?: string;
  clientSecret?: string;
  /** The company's API token (x-api-token header or ?api_token). */
  apiToken?: string;
  /** Access-token lifetime in seconds (default 3599). */
  accessTokenTtl?: number;
  /** Requests per rolling 2 s window per credential (default 400). */
  burstLimit?: number;
}

/** persons, organizations, deals, leads, notes, activities, webhooks: the emulator's records. */
export interface PipedriveEmulator extends EmulatorRecords {
  /** Origin; also the api_domain its tokens name. */
  url: string;
  port: number;
  clientId: string;
  clientSecret: string;
  apiToken: string;
  requests: EmulatedCall[];
  /** v2 webhook payloads posted to subscribers and their answers, once settled. */
  sent: SentPipedriveWebhook[];
  /** Tokens as the connector stores them, without the OAuth dance (tests). */
  issueTokens(): { accessToken: string; refreshToken: string; expiresAt: number; apiDomain: string };
  /** Every access token issued so far expires now (their refresh tokens still work). */
  expireTokens(): void;
  /** How many refresh_token grants succeeded. */
  refreshCount(): number;
  /** Calls made with the API (not OAuth, not control) whose "METHOD /path" contains `match`. */
  calls(match?: string): EmulatedCall[];
  setBurstLimit(limit: number): void;
  /** Persons made from now on are found by search only this much later (Pipedrive's index lag). */
  setSearchLag(ms: number): void;
  /** Where v1 lists put their paging (default `nested`; reset restores it): emulator-state.ts V1PagingShape. */
  setV1Paging(shape: V1PagingShape): void;
  /** Adds n custom fields (varchar) to a field list: a company with more fields than one page holds. */
  addCustomFields(list: 'dealFields' | 'personFields' | 'organizationFields', n: number): void;
  setLatency(ms: number): void;
  setFault(fault: PipedriveFault | null): void;
  /** Data, log, faults, latency and limits back to the seed; issued credentials stay valid. */
  reset(): void;
  close(): Promise<void>;
}

export async function startPipedriveEmulator(options: PipedriveEmulatorOptions = {}): Promise<PipedriveEmulator> {
  const app = Fastify({ logger: false, forceCloseConnections: true });
  const defaultBurst = options.burstLimit ?? 400;
  const rt: PipedriveRuntime = {
    clientId: options.clientId ?? 'emu-client-id',
    clientSecret: options.clientSecret ?? `emu-secret-${randomBytes(8).toString('hex')}`,
    apiToken: options.apiToken ?? `emu-api-token-${randomBytes(12).toString('hex')}`,
    ttl: options.accessTokenTtl ?? 3599,
    accessTokens: new Map(),
    refreshTokens: new Set(),
    codes: new Map(),
    refreshes: 0,
    burstLimit: defaultBurst,
    limiter: slidingWindow(2_000),
    kit: createEmulatorKit<PipedriveFault, EmulatedCall>(),
    origin: () => emulator.url,
  };
  const { kit, limiter } = rt;
  const requests = kit.requests;

  const store = emptyStore();
  const emulator: PipedriveEmulator = {
    url: '',
    port: 0,
    clientId: rt.clientId,
    clientSecret: rt.clientSecret,
    apiToken: rt.apiToken,
    requests,
    sent: store.sent,
    ...recordsOf(store),
    issueTokens() {
      const t = mint(rt);
      return {
        accessToken: t.access_token,
        refreshToken: t.refresh_token,
        expiresAt: Date.now() + rt.ttl * 1000,
        apiDomain: emulator.url,
      };
    },
    expireTokens() {
      for (const k of rt.accessTokens.keys()) rt.accessTokens.set(k, 0);
    },
    refreshCount: () => rt.refreshes,
    calls: (match) => requests.filter((r) => !match || `${r.method} ${r.path}`.includes(match)),
    setBurstLimit(limit) {
      rt.burstLimit = limit;
      limiter.clear();
    },
    setSearchLag(ms) {
      store.searchLagMs = Math.max(0, ms);
    },
    setV1Paging(shape) {
      store.v1Paging = shape;
    },
    addCustomFields(list, n) {
      const fields = store.fields[list];
      for (let i = 0; i < n; i++) {
        const id = 1000 + fields.length;
        fields.push({
          id,
          key: createHash('sha1').update(`${list}:${id}`).digest('hex'),
          name: `Extra ${id}`,
          field_type: 'varchar',
          options: null,
          edit_flag: true,
          mandatory_flag: false,
          active_flag: true,
        });
      }
    },
    setLatency: kit.setLatency,
    setFault: kit.setFault,
    reset() {
      kit.resetSwitches();
      clearStore(store);
      rt.refreshes = 0;
      rt.burstLimit = defaultBurst;
      limiter.clear();
    },
    async close() {
      kit.clearTimers();
      await app.close();
    },
  };

  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) =>
    done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );
  registerErrorHandler(app);
  registerOAuthRoutes(app, rt);

  app.get('/__emulator/log', async () => ({
    requests,
    refreshes: rt.refreshes,
    burstLimit: rt.burstLimit,
    latencyMs: kit.latencyMs,
    fault: kit.fault,
  }));
  app.get('/__emulator/state', async () => recordsOf(store));
  registerControlRoutes(app, kit, { reset: () => emulator.reset(), isEchoed: false });
  app.post('/__emulator/burst-limit', async (req) => {
    emulator.setBurstLimit(Number((req.body as { limit?: number } | null)?.limit ?? defaultBurst));
    return { ok: true };
  });
  app.post('/__emulator/v1-paging', async (req) => {
    const shape = (req.body as { shape?: string } | null)?.shape;
    emulator.setV1Paging(shape === 'flat' ? 'flat' : 'nested');
    return { ok: true };
  });
  app.post('/__emulator/expire-tokens', async () => {
    emulator.expireTokens();
    return { ok: true };
  });

  // The gate's hooks first, then the data API's routes they guard.
  registerGate(app, rt);
  const api = createApi(app, store);
  registerAccountRoutes(api);
  registerFieldRoutes(api);
  registerPipelineRoutes(api);
  registerPersonRoutes(api);
  registerOrganizationRoutes(api);
  registerDealRoutes(api);
  registerActivityRoutes(api);
  registerLeadRoutes(api);
  registerNoteRoutes(api);
  registerWebhookRoutes(api, app);

  const { port, url } = await listenEmulator(app, options);
  emulator.port = port;
  emulator.url = url;
  return emulator;
}
