// rotateAuth and withLock as connectors get them from the app: a refresh happens once however many
// calls find the token stale at the same moment, what it returns is stored sealed, and a connector
// lock keeps two holders apart, across two app instances on one PostgreSQL database too.
import { amocrm, defineConnector } from '@leadrelay/connectors';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildApp } from '../app';
import { integrations } from '../db/schema';
import { accountIdOf, createDestination } from '../test/routing-fixtures';
import { createTestApp, signUp, type TestApp } from '../test/test-app';
import { runtimeExtras } from './connector-runtime';
import { readAuth, sealAuth } from './stored-auth';

const ZAuth = z.object({ accessToken: z.string(), refreshToken: z.string() });
const crm = defineConnector({ slug: 'test-crm', kind: 'destination', auth: ZAuth, settings: z.object({}) });
const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

let t: TestApp;
let destinationId: string;
const initial = { accessToken: 'a1', refreshToken: 'r1' };

beforeAll(async () => {
  t = await createTestApp({
    crm: { amocrm: { clientId: 'cid', clientSecret: 'csecret', oauthUrl: 'https://www.amocrm.ru/oauth', hosts: [] } },
  });
  const user = await signUp(t);
  destinationId = await createDestination(t.app.db, await accountIdOf(t.app.db, user.login));
  await t.app.db
    .update(integrations)
    .set({ auth: sealAuth(t.app.deps.secrets, destinationId, initial) })
    .where(eq(integrations.id, destinationId));
});
afterAll(() => t.close());

const extras = (app = t.app) =>
  runtimeExtras(
    { db: app.db, secrets: app.deps.secrets, locks: app.deps.locks, config: app.deps.config },
    crm as never,
    destinationId,
  );

describe('rotateAuth', () => {
  it('three calls with the same stale token refresh once, all get the new token, and it is stored sealed', async () => {
    let refreshes = 0;
    const refresh = async (current: unknown) => {
      refreshes += 1;
      await tick(30);
      expect(current).toEqual(initial);
      return { accessToken: 'a2', refreshToken: 'refresh.r2' };
    };
    const rotate = extras().rotateAuth!;
    const results = await Promise.all([rotate(initial, refresh), rotate(initial, refresh), rotate(initial, refresh)]);
    expect(refreshes).toBe(1);
    for (const r of results) expect(r).toEqual({ accessToken: 'a2', refreshToken: 'refresh.r2' });
    const [row] = await t.app.db.select().from(integrations).where(eq(integrations.id, destinationId));
    // A dot is no base64 character: the sealed envelope cannot hold it by chance.
    expect(JSON.stringify(row!.auth)).not.toContain('refresh.r2');
    expect(readAuth(t.app.deps.secrets, row!)).toEqual({ accessToken: 'a2', refreshToken: 'refresh.r2' });
  });

  it('a failed refresh stores nothing and the next call may try again', async () => {
    const rotate = extras().rotateAuth!;
    const stale = { accessToken: 'a2', refreshToken: 'refresh.r2' };
    await expect(rotate(stale, async () => Promise.reject(new Error('invalid_grant')))).rejects.toThrow(
      'invalid_grant',
    );
    const again = await rotate(stale, async () => ({ accessToken: 'a3', refreshToken: 'r3' }));
    expect(again).toEqual({ accessToken: 'a3', refreshToken: 'r3' });
  });

  it('gives the app OAuth client of the type, with our callback', () => {
    const amo = runtimeExtras(
      { db: t.app.db, secrets: t.app.deps.secrets, locks: t.app.deps.locks, config: t.app.deps.config },
      amocrm as never,
      destinationId,
    );
    expect(amo.oauth).toMatchObject({ clientId: 'cid', redirectUri: 'http://app.test/api/amocrm/callback' });
    expect(extras().oauth).toBeUndefined();
  });
});

describe('withLock', () => {
  it('keeps two holders of one key apart and lets other keys through', async () => {
    const { withLock } = extras();
    const events: string[] = [];
    const hold = (name: string, key: string, ms: number) =>
      withLock!(key, async () => {
        events.push(`${name}+`);
        await tick(ms);
        events.push(`${name}-`);
      });
    // 'a' holds long enough for 'c' to open a lock connection of its own on a busy machine.
    await Promise.all([
      hold('a', 'contact:+380501', 1500),
      hold('b', 'contact:+380501', 1),
      hold('c', 'contact:+380999', 1),
    ]);
    expect(events.indexOf('b+')).toBeGreaterThan(events.indexOf('a-'));
    expect(events.indexOf('c-')).toBeLessThan(events.indexOf('a-'));
  });

  it('holds across two app instances on one database', async () => {
    const other = await buildApp({ publicUrl: 'http://app.test', databaseUrl: t.databaseUrl });
    try {
      const events: string[] = [];
      const hold = (app: typeof t.app, name: string, ms: number) =>
        extras(app).withLock!('contact:+380777', async () => {
          events.push(`${name}+`);
          await tick(ms);
          events.push(`${name}-`);
        });
      const first = hold(t.app, 'first', 80);
      // (the second holder asks for the phone and an e-mail: sharing one key is enough to wait)
      await tick(20);
      const second = extras(other).withLock!(['contact:+380777', 'email:x@example.com'], async () => {
        events.push('second+');
        events.push('second-');
      });
      await Promise.all([first, second]);
      expect(events).toEqual(['first+', 'first-', 'second+', 'second-']);
    } finally {
      await other.close();
    }
  });
});
