import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { comments } from '../../db/schema';
import { accountIdOf, createDestination, createSource } from '../../test/routing-fixtures';
import { callAs, createTestApp, errorOf, expectError, PASSWORD, signUp, type TestApp } from '../../test/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const base = '/api/legacy/api/comment';

/** A signed-up account with a source and one lead in its lead log. */
async function account() {
  const user = await signUp(t);
  const accountId = await accountIdOf(t.app.db, user.login);
  const crm = await createDestination(t.app.db, accountId, { name: 'CRM' });
  const source = await createSource(t.app.db, accountId, { destinationIds: [crm] });
  const res = await t.app.inject({ method: 'POST', url: source.url, payload: { name: 'Olena', phone: '0501234567' } });
  return { user, accountId, hookId: res.json().hookId as string };
}

describe('notes on a lead in the lead log', () => {
  let a: Awaited<ReturnType<typeof account>>;
  let b: Awaited<ReturnType<typeof account>>;
  beforeAll(async () => {
    a = await account();
    b = await account();
  });

  it('adds notes to an own lead and lists them oldest first with their author', async () => {
    const first = await callAs(t, 'POST', base, a.user, { hookId: a.hookId, text: '  Передзвонити після 14:00  ' });
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({ hookId: a.hookId, text: 'Передзвонити після 14:00', author: a.user.login });
    await callAs(t, 'POST', base, a.user, { hookId: a.hookId, text: 'Домовились на завтра' });
    const list = await callAs(t, 'GET', `${base}?hookId=${a.hookId}`, a.user);
    expect(list.json().map((c: { text: string }) => c.text)).toEqual([
      'Передзвонити після 14:00',
      'Домовились на завтра',
    ]);
  });

  it("keeps another account's leads and notes out of reach (404)", async () => {
    const mine = (await callAs(t, 'POST', base, a.user, { hookId: a.hookId, text: 'private' })).json();
    expectError(await callAs(t, 'POST', base, b.user, { hookId: a.hookId, text: 'x' }), 404, 'HOOK_NOT_FOUND');
    expectError(await callAs(t, 'GET', `${base}?hookId=${a.hookId}`, b.user), 404, 'HOOK_NOT_FOUND');
    expectError(await callAs(t, 'DELETE', `${base}/${mine._id}`, b.user), 404, 'COMMENT_NOT_FOUND');
    expect((await t.app.db.select().from(comments).where(eq(comments.id, mine._id))).length).toBe(1);
  });

  it('deletes an own note', async () => {
    const note = (await callAs(t, 'POST', base, a.user, { hookId: a.hookId, text: 'to delete' })).json();
    expect((await callAs(t, 'DELETE', `${base}/${note._id}`, a.user)).json()).toEqual({ success: true });
    expectError(await callAs(t, 'DELETE', `${base}/${note._id}`, a.user), 404, 'COMMENT_NOT_FOUND');
    expectError(await callAs(t, 'DELETE', `${base}/not-an-id`, a.user), 404, 'COMMENT_NOT_FOUND');
  });

  it('refuses bad input with a field error and anonymous callers with 401', async () => {
    const blank = await callAs(t, 'POST', base, a.user, { hookId: a.hookId, text: '   ' });
    expectError(blank, 400, 'REQUIRED');
    expect(errorOf(blank).errors).toEqual([{ field: 'text', code: 'REQUIRED' }]);
    expectError(
      await callAs(t, 'POST', base, a.user, { hookId: a.hookId, text: 'x'.repeat(2001) }),
      400,
      'MAX_LENGTH_2000',
    );
    expectError(await callAs(t, 'POST', base, a.user, { hookId: 'nope', text: 'x' }), 400, 'VALIDATION_ERROR');
    expectError(await callAs(t, 'POST', base, null, { hookId: a.hookId, text: 'x' }), 401, 'UNAUTHORIZED');
    expectError(await callAs(t, 'GET', `${base}?hookId=${a.hookId}`, null), 401, 'UNAUTHORIZED');
  });

  it('goes when the account clears its data', async () => {
    const c = await account();
    await callAs(t, 'POST', base, c.user, { hookId: c.hookId, text: 'note' });
    const cleared = await callAs(t, 'POST', '/api/account/clear-all-data', c.user, { password: PASSWORD });
    expect(cleared.statusCode).toBe(200);
    expect(await t.app.db.$count(comments, eq(comments.accountId, c.accountId))).toBe(0);
  });
});
