import { randomBytes, randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectorAssets, connectorConnections } from '../../db/schema';
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

describe('reseal-connection-tokens', () => {
  it('moves user and page tokens sealed with the previous key to the current one; unreadable ones stay', async () => {
    const accountId = await accountIdOf(t.app.db, (await signUp(t)).login);
    const old = createSecretBox(PREVIOUS);
    const connId = randomUUID();
    const pageId = randomUUID();
    const strayId = randomUUID();
    await t.app.db.insert(connectorConnections).values({
      id: connId,
      accountId,
      type: 'facebook',
      externalId: '1',
      name: 'Olena',
      secret: old.seal({ accessToken: 'user-token' }, connId),
    });
    const foreign = createSecretBox(randomBytes(32)).seal({ accessToken: 'x' }, strayId);
    await t.app.db.insert(connectorAssets).values([
      {
        id: pageId,
        accountId,
        connectionId: connId,
        kind: 'page',
        externalId: '2',
        name: 'Page',
        secret: old.seal({ accessToken: 'page-token' }, pageId),
      },
      { id: strayId, accountId, connectionId: connId, kind: 'page', externalId: '3', name: 'Stray', secret: foreign },
    ]);

    expect(await t.app.periodic.runNow('reseal-connection-tokens')).toBe('ran');
    const current = createSecretBox(CURRENT);
    const [conn] = await t.app.db.select().from(connectorConnections).where(eq(connectorConnections.id, connId));
    const [page] = await t.app.db.select().from(connectorAssets).where(eq(connectorAssets.id, pageId));
    const [stray] = await t.app.db.select().from(connectorAssets).where(eq(connectorAssets.id, strayId));
    expect((conn!.secret as SealedSecret).kid).toBe(keyId(CURRENT));
    expect(current.open(conn!.secret, connId)).toEqual({ accessToken: 'user-token' });
    expect(current.open(page!.secret, pageId)).toEqual({ accessToken: 'page-token' });
    expect(stray!.secret).toEqual(foreign);
  });
});
