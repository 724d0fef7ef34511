import { randomBytes, randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fbConnections, fbPages } from '../../db/schema';
import { createSecretBox, keyId, type SealedSecret } from '../../lib/secret-box';
import { accountIdOf } from '../../test/routing-fixtures';
import { createTestApp, signUp, type TestApp } from '../../test/test-app';

const CURRENT = randomBytes(32);
const PREVIOUS = randomBytes(32);
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({
    encryptionKey: CURRENT.toString('base64'),
    encryptionKeyPrevious: PREVIOUS.toString('base64'),
  });
});
afterAll(() => t?.close());

describe('reseal-facebook-tokens', () => {
  it('moves user and page tokens sealed with the previous key to the current one; unreadable ones stay', async () => {
    const accountId = await accountIdOf(t.app.db, (await signUp(t)).login);
    const old = createSecretBox(PREVIOUS);
    const connId = randomUUID();
    const pageId = randomUUID();
    const strayId = randomUUID();
    await t.app.db.insert(fbConnections).values({
      id: connId,
      accountId,
      fbUserId: '1',
      name: 'Olena',
      userToken: old.seal({ accessToken: 'user-token' }, connId),
    });
    const foreign = createSecretBox(randomBytes(32)).seal({ accessToken: 'x' }, strayId);
    await t.app.db.insert(fbPages).values([
      {
        id: pageId,
        accountId,
        connectionId: connId,
        pageId: '2',
        name: 'Page',
        pageToken: old.seal({ accessToken: 'page-token' }, pageId),
      },
      { id: strayId, accountId, connectionId: connId, pageId: '3', name: 'Stray', pageToken: foreign },
    ]);

    expect(await t.app.periodic.runNow('reseal-facebook-tokens')).toBe('ran');
    const current = createSecretBox(CURRENT);
    const [conn] = await t.app.db.select().from(fbConnections).where(eq(fbConnections.id, connId));
    const [page] = await t.app.db.select().from(fbPages).where(eq(fbPages.id, pageId));
    const [stray] = await t.app.db.select().from(fbPages).where(eq(fbPages.id, strayId));
    expect((conn!.userToken as SealedSecret).kid).toBe(keyId(CURRENT));
    expect(current.open(conn!.userToken, connId)).toEqual({ accessToken: 'user-token' });
    expect(current.open(page!.pageToken, pageId)).toEqual({ accessToken: 'page-token' });
    expect(stray!.pageToken).toEqual(foreign);
  });
});
