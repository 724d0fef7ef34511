import { createServer, type IncomingMessage, type Server } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ConnectionCall } from '../kit/connection';
import { TiktokError } from './client';
import { tiktokConnections as tt } from './connection';
import { startTiktokEmulator, TIKTOK_SEED, type TiktokEmulator } from './emulator';

// The connection's declaration against the TikTok emulator: the consent, the token, the ad accounts
// and forms, the LEAD subscription, and the signed webhook the receiver turns into events.

let emu: TiktokEmulator;
let call: ConnectionCall;
let hook: Server;
let hookUrl: string;
const posts: { raw: Buffer; headers: IncomingMessage['headers'] }[] = [];
let hookStatus = 200;
const [DENTAL, COFFEE] = TIKTOK_SEED.advertisers;

beforeAll(async () => {
  emu = await startTiktokEmulator({ retrySchedule: [20, 20] });
  call = {
    config: {
      TIKTOK_APP_ID: emu.appId,
      TIKTOK_APP_SECRET: emu.appSecret,
      TIKTOK_API_URL: emu.apiUrl,
      TIKTOK_AUTH_URL: emu.authUrl,
    },
    fetch,
    timeoutMs: 5_000,
  };
  hook = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      posts.push({ raw: Buffer.concat(chunks), headers: req.headers });
      res.writeHead(hookStatus).end('{}');
    });
  });
  await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
  const address = hook.address();
  hookUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/api/tiktok/webhook`;
});
afterAll(async () => {
  await emu?.close();
  await new Promise((r) => hook?.close(r));
});
beforeEach(() => {
  emu.reset();
  posts.length = 0;
  hookStatus = 200;
});

/** The consent page (the emulator grants at once) and the code it sends back. */
async function login(): Promise<string> {
  const url = new URL(tt.login.url(call, 'https://app.example/api/tiktok/callback', 'state-1'));
  expect(url.searchParams.get('app_id')).toBe(emu.appId);
  const res = await fetch(url, { redirect: 'manual' });
  expect(res.status).toBe(302);
  const back = new URL(res.headers.get('location') ?? '');
  expect(back.searchParams.get('state')).toBe('state-1');
  const token = await tt.login.trade(call, back.searchParams.get('code') ?? '', '');
  return token.accessToken;
}

describe('the TikTok connection', () => {
  it('trades the consent code for a token once, and knows who signed in and their ad accounts', async () => {
    const token = await login();
    const profile = await tt.login.profile(call, token, () => undefined);
    expect(profile).toMatchObject({ externalId: TIKTOK_SEED.user.id, name: TIKTOK_SEED.user.name });
    expect(profile.assets.advertiser?.map((a) => [a.externalId, a.name, a.accessToken])).toEqual([
      [DENTAL.id, DENTAL.name, token],
      [COFFEE.id, COFFEE.name, token],
    ]);
    await expect(tt.login.trade(call, 'not-a-code', '')).rejects.toBeInstanceOf(TiktokError);
  });

  it('lists the Instant Forms of an ad account with their fields', async () => {
    const token = await login();
    const state = await tt.asset.state(call, DENTAL.id, token);
    expect(state.subscribed).toBe(false);
    expect(state.forms).toEqual([
      {
        id: TIKTOK_SEED.forms.consultation,
        name: 'Free consultation',
        status: 'PUBLISHED',
        questions: ['name', 'phone_number', 'email', 'preferred_clinic'].map((k) => ({
          key: k,
          label: k,
          type: k.toUpperCase(),
        })),
      },
      expect.objectContaining({ id: TIKTOK_SEED.forms.booking, status: 'EDITED' }),
    ]);
  });

  it('subscribes an ad account once, delivers its leads signed, and stops after unsubscribing', async () => {
    const token = await login();
    await tt.asset.subscribe(call, DENTAL.id, token, { url: hookUrl });
    await tt.asset.subscribe(call, DENTAL.id, token, { url: hookUrl });
    expect(emu.subscriptions()).toHaveLength(1);
    expect((await tt.asset.state(call, DENTAL.id, token)).subscribed).toBe(true);

    const lead = emu.submitLead({ formId: TIKTOK_SEED.forms.consultation, answers: { name: 'Іван Франко' } });
    await emu.idle();
    expect(posts).toHaveLength(1);
    const [post] = posts;
    const events = tt.inbound.receiver.receive(call.config, post!.raw, post!.headers);
    expect(events).toEqual([
      {
        externalId: lead.id,
        assetId: DENTAL.id,
        data: expect.objectContaining({ name: 'Іван Франко', tiktok_form_id: TIKTOK_SEED.forms.consultation }),
      },
    ]);
    const item = await tt.inbound.fetch(call, { ...events[0]!, data: events[0]!.data ?? {} }, token);
    expect(item.form).toBe(TIKTOK_SEED.forms.consultation);
    expect(item.payload.name).toBe('Іван Франко');

    await tt.asset.unsubscribe(call, DENTAL.id, token, { url: hookUrl });
    expect(emu.subscriptions()).toHaveLength(0);
    emu.submitLead({ formId: TIKTOK_SEED.forms.consultation });
    await emu.idle();
    expect(posts).toHaveLength(1);
  });

  it('leaves another callback’s subscription of the same ad account alone', async () => {
    const token = await login();
    await tt.asset.subscribe(call, DENTAL.id, token, { url: 'https://elsewhere.example/api/tiktok/webhook' });
    await tt.asset.subscribe(call, DENTAL.id, token, { url: hookUrl });
    await tt.asset.unsubscribe(call, DENTAL.id, token, { url: hookUrl });
    expect(emu.subscriptions().map((s) => s.callbackUrl)).toEqual(['https://elsewhere.example/api/tiktok/webhook']);
  });

  it('a revoked token is a refusal that asks to connect again; throttling and 5xx are not', async () => {
    const token = await login();
    emu.revokeTokens();
    const revoked = await tt.asset.state(call, DENTAL.id, token).catch((e: unknown) => e);
    expect(revoked).toBeInstanceOf(TiktokError);
    expect(tt.errors.refused(revoked)).toBe(true);
    expect(tt.errors.reason(revoked)).toMatch(/\(TikTok code 40105\)$/);

    const fresh = await login();
    emu.setFault({ code: 40100, times: 1 });
    const throttled = await tt.asset.state(call, DENTAL.id, fresh).catch((e: unknown) => e);
    expect(tt.errors.refused(throttled)).toBe(false);
    expect((throttled as TiktokError).isTransient).toBe(true);
    emu.setFault({ status: 503, times: 1 });
    const down = await tt.asset.state(call, DENTAL.id, fresh).catch((e: unknown) => e);
    expect(tt.errors.refused(down)).toBe(false);
    expect((down as TiktokError).isTransient).toBe(true);
  });

  it('never puts the app secret or the token in a failure’s words', async () => {
    const token = await login();
    const broken = { ...call, config: { ...call.config, TIKTOK_API_URL: 'http://127.0.0.1:9/open_api/v1.3' } };
    const error = await tt.asset.state(broken, DENTAL.id, token).catch((e: unknown) => e);
    const words = tt.errors.reason(error);
    expect(words).not.toContain(emu.appSecret);
    expect(words).not.toContain(token);
  });

  it('retries a webhook the receiver did not take, as TikTok does', async () => {
    const token = await login();
    await tt.asset.subscribe(call, COFFEE.id, token, { url: hookUrl });
    hookStatus = 500;
    emu.submitLead({ formId: TIKTOK_SEED.forms.coffee });
    await emu.idle();
    expect(posts).toHaveLength(3);
    expect(new Set(posts.map((p) => p.raw.toString()))).toHaveProperty('size', 1);
  });

  it('makes a test lead on the integration’s form, replacing the one it made before', async () => {
    const token = await login();
    await tt.asset.subscribe(call, DENTAL.id, token, { url: hookUrl });
    const memory = new Map<string, string>();
    const run = tt.actions!.testLead!.run;
    const settings = { ttAdvertiserId: DENTAL.id, ttFormId: TIKTOK_SEED.forms.consultation };
    const first = (await run(call, { token, settings, body: null, memory })) as { leadId: string };
    const second = (await run(call, { token, settings, body: null, memory })) as { leadId: string };
    expect(second.leadId).not.toBe(first.leadId);
    await emu.idle();
    expect(posts).toHaveLength(2);
    await expect(run(call, { token, settings: {}, body: null, memory })).rejects.toThrow('INTEGRATION_NOT_CONNECTED');
  });
});
