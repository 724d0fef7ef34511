// Connector credentials at rest: sealed in the row, opened for the connector, never answered;
// a row no key opens fails clearly; a rotated key and rows from before encryption keep working.
import { randomBytes } from 'node:crypto';
import { sign } from '@leadrelay/connectors';
import { type HttpEmulator, startHttpEmulator } from '@leadrelay/connectors/http/emulator';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveries, integrations } from '../db/schema';
import { createSecretBox, isSealed, keyId, type SealedSecret } from '../lib/secret-box';
import {
  callAs,
  createTestApp,
  type Method,
  onUnlimitedPlan,
  type SignedInUser,
  signUp,
  type TestApp,
} from '../test/test-app';
import { readAuth } from './stored-auth';

const CURRENT = randomBytes(32);
const PREVIOUS = randomBytes(32);
let t: TestApp;
let alice: SignedInUser;
let emulator: HttpEmulator;

beforeAll(async () => {
  t = await createTestApp({
    allowPrivateDestinations: true,
    encryptionKey: CURRENT.toString('base64'),
    encryptionKeyPrevious: PREVIOUS.toString('hex'),
  });
  alice = await onUnlimitedPlan(t, await signUp(t));
  emulator = await startHttpEmulator();
});
afterAll(async () => {
  await emulator.close();
  await t.close();
});

const call = (method: Method, url: string, payload?: unknown) => callAs(t, method, url, alice, payload);

async function create(body: Record<string, unknown>): Promise<{ _id: string }> {
  const res = await call('POST', '/api/integrations', body);
  if (res.statusCode !== 201) throw new Error(`create failed: ${res.body}`);
  return res.json();
}

/** An http destination connected with `secret`, fed by a webhook source; the source's ingest path. */
async function pipeline(secret: string) {
  const destination = await create({ type: 'http', name: 'Out', settings: { url: emulator.hookUrl } });
  const connected = await call('PUT', `/api/admin/integration/${destination._id}/connect`, { auth: { secret } });
  expect(connected.json()).toMatchObject({ ok: true, integration: { isConnected: true } });
  const source = await create({ type: 'webhook', name: 'Form', destination: [destination._id] });
  const hook = await call('GET', `/api/integrations/${source._id}/generateHook`);
  return { destinationId: destination._id, sourceId: source._id, ingestUrl: `/api/hooks/in/${hook.json().token}` };
}

async function storedAuth(id: string) {
  const [row] = await t.app.db.select().from(integrations).where(eq(integrations.id, id));
  return row!.auth;
}
const setStoredAuth = (id: string, auth: Record<string, unknown>) =>
  t.app.db.update(integrations).set({ auth }).where(eq(integrations.id, id));

let leadNumber = 0;
/** Ingests one new lead, runs the worker, and answers the delivery rows and what the emulator got. */
async function deliverOne(ingestUrl: string) {
  emulator.reset();
  // A different phone each time: a repeat within the dedupe window would not be delivered again.
  const phone = `050${String(++leadNumber).padStart(7, '0')}`;
  const res = await t.app.inject({ method: 'POST', url: ingestUrl, payload: { name: 'Olena', phone } });
  expect(res.statusCode).toBe(202);
  const hookId = res.json().hookId as string;
  await t.app.deliveryWorker.drain();
  const rows = await t.app.db.select().from(deliveries).where(eq(deliveries.hookId, hookId));
  return { rows, received: emulator.requests.slice() };
}

/** The receiver's check: the signature is the HMAC of the exact body with the secret it was given. */
const signedWith = (secret: string, request: { rawBody: string; signature?: string }) =>
  request.signature === sign(secret, request.rawBody);

describe('integration credentials at rest', () => {
  it('are sealed in the row and never answered by the API', async () => {
    const secret = `whsec-${randomBytes(8).toString('hex')}`;
    const { destinationId, sourceId } = await pipeline(secret);
    const stored = await storedAuth(destinationId);
    expect(isSealed(stored)).toBe(true);
    expect((stored as SealedSecret).kid).toBe(keyId(CURRENT));
    expect(JSON.stringify(stored)).not.toContain(secret);
    const [raw] = await t.app.db.select().from(integrations).where(eq(integrations.id, destinationId));
    expect(JSON.stringify(raw)).not.toContain(secret);

    const answers = [
      await call('GET', `/api/integrations/${destinationId}`),
      await call('GET', '/api/integrations'),
      await call('GET', `/api/integrations/${sourceId}/destinations`),
      await call('PUT', `/api/admin/integration/${destinationId}/connect`, { auth: { secret } }),
      await call('POST', `/api/admin/integration/${destinationId}/check-connection`),
    ];
    for (const res of answers) {
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toContain(secret);
      expect(res.body).not.toContain('"auth"');
      expect(res.body).not.toContain((stored as SealedSecret).data);
    }
  });

  it('reach the destination: connect, ingest, deliver signs with the secret', async () => {
    const secret = 'round-trip-secret';
    const { ingestUrl } = await pipeline(secret);
    const { rows, received } = await deliverOne(ingestUrl);
    expect(rows.map((r) => r.status)).toEqual(['delivered']);
    expect(received).toHaveLength(1);
    expect(signedWith(secret, received[0]!)).toBe(true);
  });

  it('an emptied secret is stored as not connected, not as a sealed empty object', async () => {
    const destination = await create({ type: 'http', name: 'Plain', settings: { url: emulator.hookUrl } });
    const res = await call('PUT', `/api/admin/integration/${destination._id}/connect`, { auth: {} });
    expect(res.json()).toMatchObject({ ok: true, integration: { isConnected: false } });
    expect(await storedAuth(destination._id)).toBeNull();
  });

  it('a row no key opens: the check and the delivery say so, the worker carries on, connecting again fixes it', async () => {
    const broken = await pipeline('first-secret');
    const healthy = await pipeline('second-secret');
    const sealed = (await storedAuth(broken.destinationId)) as SealedSecret;
    const flipped = Buffer.from(sealed.data, 'base64');
    flipped[0] = (flipped[0] ?? 0) ^ 1;
    const cases: Record<string, unknown>[] = [
      { ...sealed, data: flipped.toString('base64') },
      createSecretBox(randomBytes(32)).seal({ secret: 'first-secret' }, broken.destinationId),
      // Another integration's envelope does not open in this row.
      (await storedAuth(healthy.destinationId)) as SealedSecret,
    ];
    for (const auth of cases) {
      await setStoredAuth(broken.destinationId, auth);
      const check = await call('POST', `/api/admin/integration/${broken.destinationId}/check-connection`);
      expect(check.json()).toEqual({
        ok: false,
        status: 'broken',
        reason: 'INTEGRATION_AUTH_UNREADABLE',
        reasonKey: { code: 'INTEGRATION_AUTH_UNREADABLE' },
      });
      expect((await call('GET', `/api/integrations/${broken.destinationId}`)).json()).toMatchObject({
        status: 'broken',
        statusReason: 'INTEGRATION_AUTH_UNREADABLE',
      });
      const [row] = await t.app.db.select().from(integrations).where(eq(integrations.id, broken.destinationId));
      expect(() => readAuth(t.app.deps.secrets, row!)).toThrow(
        expect.objectContaining({ code: 'INTEGRATION_AUTH_UNREADABLE', statusCode: 400 }),
      );
    }

    // A failed delivery for good (no retries), while the other destination's lead goes through.
    const bad = await deliverOne(broken.ingestUrl);
    expect(bad.rows).toHaveLength(1);
    expect(bad.rows[0]).toMatchObject({ status: 'failed', attempts: 1 });
    expect(bad.rows[0]!.lastError).toMatch(/^INTEGRATION_AUTH_UNREADABLE/);
    expect(bad.received).toHaveLength(0);
    const good = await deliverOne(healthy.ingestUrl);
    expect(good.rows.map((r) => r.status)).toEqual(['delivered']);

    const reconnected = await call('PUT', `/api/admin/integration/${broken.destinationId}/connect`, {
      auth: { secret: 'new-secret' },
    });
    expect(reconnected.json()).toMatchObject({ ok: true, integration: { status: 'ok', statusReason: null } });
    const again = await deliverOne(broken.ingestUrl);
    expect(again.rows.map((r) => r.status)).toEqual(['delivered']);
    expect(signedWith('new-secret', again.received[0]!)).toBe(true);
  });

  it('after a rotation, rows sealed with the previous key still deliver; the reseal task moves them', async () => {
    const { destinationId, ingestUrl } = await pipeline('placeholder');
    await setStoredAuth(destinationId, createSecretBox(PREVIOUS).seal({ secret: 'old-key-secret' }, destinationId));
    const before = await deliverOne(ingestUrl);
    expect(before.rows.map((r) => r.status)).toEqual(['delivered']);
    expect(signedWith('old-key-secret', before.received[0]!)).toBe(true);

    expect(await t.app.periodic.runNow('reseal-integration-auth')).toBe('ran');
    const resealed = (await storedAuth(destinationId)) as SealedSecret;
    expect(resealed.kid).toBe(keyId(CURRENT));
    // Without the previous key now, the row still opens.
    expect(createSecretBox(CURRENT).open(resealed, destinationId)).toEqual({ secret: 'old-key-secret' });
  });

  it('plaintext rows from before encryption are read, then sealed by the reseal task; unreadable rows are left', async () => {
    const legacy = await pipeline('placeholder');
    await setStoredAuth(legacy.destinationId, { secret: 'legacy-secret' });
    const unreadable = await pipeline('placeholder');
    const foreign = createSecretBox(randomBytes(32)).seal({ secret: 'x' }, unreadable.destinationId);
    await setStoredAuth(unreadable.destinationId, foreign);

    const before = await deliverOne(legacy.ingestUrl);
    expect(signedWith('legacy-secret', before.received[0]!)).toBe(true);

    expect(await t.app.periodic.runNow('reseal-integration-auth')).toBe('ran');
    const sealed = await storedAuth(legacy.destinationId);
    expect(isSealed(sealed)).toBe(true);
    expect(JSON.stringify(sealed)).not.toContain('legacy-secret');
    expect(await storedAuth(unreadable.destinationId)).toEqual(foreign);

    const after = await deliverOne(legacy.ingestUrl);
    expect(signedWith('legacy-secret', after.received[0]!)).toBe(true);
  });
});
