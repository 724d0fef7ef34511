import { randomBytes, randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentMethods } from '../../db/schema';
import { createSecretBox, keyId } from '../../lib/secret-box';
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

describe('reseal-payment-tokens', () => {
  it('moves a saved card sealed with the previous key to the current one, so renewals survive the old key going', async () => {
    const accountId = await accountIdOf(t.app.db, (await signUp(t)).login);
    const id = randomUUID();
    const token = createSecretBox(PREVIOUS).seal({ token: 'card-token-1' }, id);
    await t.app.db.insert(paymentMethods).values({ id, accountId, provider: 'liqpay', token, mask: '424242*42' });
    expect(await t.app.periodic.runNow('reseal-payment-tokens')).toBe('ran');
    const [row] = await t.app.db.select().from(paymentMethods).where(eq(paymentMethods.id, id));
    expect(row!.token.kid).toBe(keyId(CURRENT));
    expect(createSecretBox(CURRENT).open(row!.token, id)).toEqual({ token: 'card-token-1' });
  });
});
