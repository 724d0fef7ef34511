// GET /api/integrations/{id}/{type}/lists/{list}: `list` comes from the URL and picks one of the
// connector's loaders. A name every object inherits is not a loader (issue 27): `constructor`
// used to be called with the connector's context and answered it, credentials included.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { integrations } from '../../db/schema';
import { accountIdOf, createDestination } from '../../test/routing-fixtures';
import { bearer, createTestApp, type SignedInUser, signUp, type TestApp } from '../../test/test-app';

const TOKEN = 'pd-api-token-never-shown';
const MEMBERS = [
  ...new Set([...Object.getOwnPropertyNames(Object.prototype), ...Object.getOwnPropertyNames(Function.prototype)]),
];

let t: TestApp;
let user: SignedInUser;
let id: string;
beforeAll(async () => {
  t = await createTestApp();
  user = await signUp(t);
  id = await createDestination(t.app.db, await accountIdOf(t.app.db, user.login), { type: 'pipedrive' });
  await t.app.db
    .update(integrations)
    .set({ auth: { kind: 'token', apiToken: TOKEN, apiDomain: 'https://acme.pipedrive.com' } })
    .where(eq(integrations.id, id));
});
afterAll(() => t.close());

describe('a connector list named like a built-in member', () => {
  it('is no list: OPERATION_NOT_SUPPORTED, and the connection is never answered back', async () => {
    for (const list of [...MEMBERS, ...MEMBERS.map((m) => m.toUpperCase())]) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/integrations/${id}/pipedrive/lists/${encodeURIComponent(list)}`,
        headers: bearer(user.accessToken),
      });
      expect(res.body, list).not.toContain(TOKEN);
      expect([res.statusCode, res.json().code], list).toEqual([400, 'OPERATION_NOT_SUPPORTED']);
    }
  });
});
