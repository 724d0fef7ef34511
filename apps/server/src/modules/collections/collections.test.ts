import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  callAs,
  createTestApp,
  expectError,
  type Method,
  type SignedInUser,
  signUp,
  type TestApp,
} from '../../test/test-app';

let t: TestApp;
let alice: SignedInUser;
let bob: SignedInUser;
beforeAll(async () => {
  t = await createTestApp();
  alice = await signUp(t);
  bob = await signUp(t);
});
afterAll(() => t.close());

const call = (method: Method, url: string, user: SignedInUser | null, payload?: unknown) =>
  callAs(t, method, url, user, payload);

const base = '/api/legacy/api/admin/collection';
const MISSING = '00000000-0000-4000-8000-000000000000';

async function create(user: SignedInUser, body: Record<string, unknown>) {
  const res = await call('POST', base, user, body);
  if (res.statusCode !== 201) throw new Error(res.body);
  return res.json();
}

describe('collections', () => {
  it('creates, lists, updates and deletes', async () => {
    const created = await create(alice, { name: ' Managers ', items: [{ name: 'Olena', value: '11', weight: 2 }] });
    expect(created).toMatchObject({ name: 'Managers', items: [{ name: 'Olena', value: '11', weight: 2 }] });
    expect(created.items[0].id).toEqual(expect.any(String));
    await create(alice, { name: 'Other list' });
    await create(bob, { name: 'Managers of bob' });

    const list = (await call('GET', base, alice)).json();
    expect([list.total, list.data.length]).toEqual([2, 2]);
    const searched = (await call('GET', `${base}?search=manag&limit=1&page=1`, alice)).json();
    expect([searched.total, searched.data[0].name]).toEqual([1, 'Managers']);
    expect((await call('GET', `${base}/${created._id}`, alice)).json().name).toBe('Managers');

    const keptId = created.items[0].id;
    const updated = await call('PUT', `${base}/${created._id}`, alice, {
      name: 'Sales',
      items: [
        { id: keptId, name: 'Olena', value: '11' },
        { name: 'Ivan', value: '12' },
      ],
    });
    expect(updated.json().name).toBe('Sales');
    expect(updated.json().items[0].id).toBe(keptId);
    expect(updated.json().items).toHaveLength(2);

    expect((await call('DELETE', `${base}/${created._id}`, alice)).json()).toEqual({ success: true });
    expectError(await call('GET', `${base}/${created._id}`, alice), 404, 'COLLECTION_NOT_FOUND');
  });

  it('adds and removes items', async () => {
    const c = await create(alice, { name: 'Items' });
    const added = await call('PUT', `${base}/${c._id}/items`, alice, { name: 'Olena', value: '11', weight: 3 });
    expect(added.statusCode).toBe(200);
    const item = added.json().items[0];
    expect(item).toEqual({ id: expect.any(String), name: 'Olena', value: '11', weight: 3 });
    await call('PUT', `${base}/${c._id}/items`, alice, { name: 'Ivan', value: '12' });
    const removed = await call('DELETE', `${base}/${c._id}/items/${item.id}`, alice);
    expect(removed.json().items.map((i: { name: string }) => i.name)).toEqual(['Ivan']);
    expectError(await call('DELETE', `${base}/${c._id}/items/${item.id}`, alice), 404, 'ITEM_NOT_FOUND');
  });

  it('holds at most 500 items', async () => {
    const items = Array.from({ length: 500 }, (_, i) => ({ name: `n${i}`, value: `${i}` }));
    const full = await create(alice, { name: 'Full', items });
    expect(full.items).toHaveLength(500);
    expectError(
      await call('PUT', `${base}/${full._id}/items`, alice, { name: 'one', value: 'more' }),
      400,
      'COLLECTION_ITEMS_LIMIT',
    );
    expectError(
      await call('POST', base, alice, { name: 'Too many', items: [...items, { name: 'x', value: 'y' }] }),
      400,
      'COLLECTION_ITEMS_LIMIT',
    );
  });

  it('refuses bad input', async () => {
    const c = await create(alice, { name: 'Valid' });
    expectError(await call('POST', base, alice, {}), 400, 'REQUIRED');
    expectError(await call('POST', base, alice, { name: 5 }), 400, 'INVALID_TYPE');
    expectError(await call('POST', base, alice, { name: 'x'.repeat(101) }), 400, 'MAX_LENGTH_100');
    expectError(await call('POST', base, alice, { name: 'x', items: 'all' }), 400, 'INVALID_TYPE');
    expectError(await call('POST', base, alice, { name: 'x', items: [{ name: 'a' }] }), 400, 'REQUIRED');
    expectError(await call('PUT', `${base}/${c._id}`, alice, { name: '' }), 400, 'REQUIRED');
    expectError(
      await call('PUT', `${base}/${c._id}/items`, alice, { name: 'a', value: '1', weight: 1.5 }),
      400,
      'INTEGER',
    );
    expectError(
      await call('PUT', `${base}/${c._id}/items`, alice, { name: 'a', value: '1', weight: 0 }),
      400,
      'VALIDATION_ERROR',
    );
    expectError(await call('PUT', `${base}/${c._id}/items`, alice, { value: '1' }), 400, 'REQUIRED');
    expect((await call('GET', `${base}?limit=101`, alice)).statusCode).toBe(400);
  });

  it('answers 404 for another account’s, missing and malformed ids', async () => {
    const bobs = await create(bob, { name: 'Bob list', items: [{ name: 'b', value: '1' }] });
    for (const id of [bobs._id, MISSING, 'nope']) {
      expectError(await call('GET', `${base}/${id}`, alice), 404, 'COLLECTION_NOT_FOUND');
      expectError(await call('PUT', `${base}/${id}`, alice, { name: 'x' }), 404, 'COLLECTION_NOT_FOUND');
      expectError(await call('DELETE', `${base}/${id}`, alice), 404, 'COLLECTION_NOT_FOUND');
      expectError(
        await call('PUT', `${base}/${id}/items`, alice, { name: 'a', value: '1' }),
        404,
        'COLLECTION_NOT_FOUND',
      );
      expectError(await call('DELETE', `${base}/${id}/items/${bobs.items[0].id}`, alice), 404, 'COLLECTION_NOT_FOUND');
    }
    const stillThere = (await call('GET', `${base}/${bobs._id}`, bob)).json();
    expect(stillThere.items).toHaveLength(1);
    expectError(await call('GET', base, null), 401, 'UNAUTHORIZED');
  });

  it('refuses to delete a collection an integration distributes with (409)', async () => {
    const c = await create(alice, { name: 'Used' });
    const integration = await call('POST', '/api/integrations', alice, {
      type: 'webhook',
      name: 'Form',
      distributionId: c._id,
    });
    expect(integration.statusCode).toBe(201);
    expectError(await call('DELETE', `${base}/${c._id}`, alice), 409, 'COLLECTION_IN_USE');
    await call('PUT', `/api/integrations/${integration.json()._id}/update`, alice, { distributionId: null });
    expect((await call('DELETE', `${base}/${c._id}`, alice)).statusCode).toBe(200);
  });
});
