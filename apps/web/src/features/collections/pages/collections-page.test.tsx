import type { Collection, TelegramBots } from '@leadrelay/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, makeUser, renderPage } from '../../../test/render';
import { CollectionsPage } from './collections-page';

const BASE = '/api/legacy/api/admin/collection';
const slow = { timeout: 5000 };

interface Call {
  method: string;
  path: string;
  body: unknown;
}

/** A small in-memory stand-in for the collections API, recording every call. */
function fakeServer(initial: Collection[], bots: TelegramBots = []) {
  let rows = structuredClone(initial);
  let next = 1;
  const calls: Call[] = [];
  const now = '2026-01-01T00:00:00.000Z';
  const fetchMock = vi.fn(async (input: string, init: RequestInit = {}) => {
    const url = new URL(input, 'http://localhost');
    const method = init.method ?? 'GET';
    const body = init.body ? JSON.parse(String(init.body)) : undefined;
    calls.push({ method, path: url.pathname + (method === 'GET' ? url.search : ''), body });
    // The account's Telegram bots and a manager's link (issue 19).
    if (url.pathname === '/api/telegram/bots') return jsonResponse(200, bots);
    if (url.pathname === '/api/telegram/link-codes') {
      return jsonResponse(201, {
        code: 'CODE123',
        url: 'https://t.me/sales_bot?start=CODE123',
        botUsername: 'sales_bot',
        expiresAt: '2026-01-01T10:15:00.000Z',
      });
    }
    if (url.pathname === '/api/telegram/unlink') {
      const item = rows.find((r) => r._id === body.collectionId)?.items.find((i) => i.id === body.itemId);
      if (item) delete item.telegram;
      return jsonResponse(200, { success: true });
    }
    const m = url.pathname.slice(BASE.length).split('/').filter(Boolean);
    const find = (id?: string) => rows.find((r) => r._id === id);
    if (method === 'GET' && m.length === 0) return jsonResponse(200, { data: rows, total: rows.length });
    if (method === 'POST' && m.length === 0) {
      const row: Collection = { _id: `c${next++}`, name: body.name, items: [], createdAt: now, updatedAt: now };
      rows = [row, ...rows];
      return jsonResponse(201, row);
    }
    const row = find(m[0]);
    if (!row) return jsonResponse(404, { code: 'COLLECTION_NOT_FOUND', message: 'x' });
    if (method === 'PUT' && m[1] === 'items' && m[3] === 'away') {
      row.items = row.items.map((i) => (i.id === m[2] ? { ...i, away: body.away } : i));
      return jsonResponse(200, row);
    }
    if (method === 'PUT' && m[1] === 'items') {
      row.items.push({ id: `i${next++}`, ...body });
      return jsonResponse(200, row);
    }
    if (method === 'DELETE' && m[1] === 'items') {
      row.items = row.items.filter((i) => i.id !== m[2]);
      return jsonResponse(200, row);
    }
    if (method === 'PUT') {
      Object.assign(row, body);
      return jsonResponse(200, row);
    }
    if (method === 'DELETE') {
      if (row.name === 'In use') return jsonResponse(409, { code: 'COLLECTION_IN_USE', message: 'x' });
      rows = rows.filter((r) => r !== row);
      return jsonResponse(200, { success: true });
    }
    return jsonResponse(404, { code: 'NOT_FOUND', message: 'x' });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, writes: () => calls.filter((c) => c.method !== 'GET') };
}

const sales: Collection = {
  _id: 'c-sales',
  name: 'Sales',
  items: [
    { id: 'i-anna', name: 'Anna', value: '101', weight: 3 },
    { id: 'i-petro', name: 'Petro', value: '102' },
  ],
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

const render = () => renderPage(<CollectionsPage />, { user: makeUser(), locale: 'en', path: '/en/admin/collections' });

beforeEach(() => {
  vi.unstubAllGlobals();
});

describe('CollectionsPage', { timeout: 30_000 }, () => {
  it('explains collections and invites to create the first one', async () => {
    fakeServer([]);
    render();
    expect(await screen.findByText('No collections yet', {}, slow)).toBeTruthy();
    expect(screen.getByText(/hands out its leads among them in turn/)).toBeTruthy();
  });

  it('creates a collection with POST and says so', async () => {
    const server = fakeServer([]);
    const user = userEvent.setup();
    render();
    await user.click(await screen.findByRole('button', { name: /New collection/ }, slow));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText('Name'), '  Managers ');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Collection created', {}, slow)).toBeTruthy();
    expect(server.writes()).toEqual([{ method: 'POST', path: BASE, body: { name: 'Managers' } }]);
    expect(await screen.findByText('Managers', {}, slow)).toBeTruthy();
  });

  it('refuses an empty name without calling the server', async () => {
    const server = fakeServer([]);
    const user = userEvent.setup();
    render();
    await user.click(await screen.findByRole('button', { name: /New collection/ }, slow));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText('This field is required', {}, slow)).toBeTruthy();
    expect(server.writes()).toEqual([]);
  });

  it('adds an item with PUT …/items and shows its share of the leads', async () => {
    const server = fakeServer([sales]);
    const user = userEvent.setup();
    render();
    const card = await screen.findByTestId('collection-c-sales', {}, slow);
    expect(within(card).getByText('3 · 75% of leads')).toBeTruthy();
    await user.click(within(card).getByRole('button', { name: /Add item/ }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText('Name'), 'Olena');
    await user.type(within(dialog).getByLabelText('Value'), '103');
    const weight = within(dialog).getByLabelText('Weight');
    await user.clear(weight);
    await user.type(weight, '4');
    await user.click(within(dialog).getByRole('button', { name: /Add item/ }));
    expect(await screen.findByText('Item added', {}, slow)).toBeTruthy();
    expect(server.writes()).toEqual([
      { method: 'PUT', path: `${BASE}/c-sales/items`, body: { name: 'Olena', value: '103', weight: 4 } },
    ]);
    // 3 + 1 + 4 = 8: Olena gets half the leads.
    expect(await within(card).findByText('4 · 50% of leads', {}, slow)).toBeTruthy();
  });

  it('removes an item with DELETE …/items/:itemId after confirmation', async () => {
    const server = fakeServer([sales]);
    const user = userEvent.setup();
    render();
    const card = await screen.findByTestId('collection-c-sales', {}, slow);
    await user.click(within(card).getByRole('button', { name: 'Remove “Petro”' }));
    expect(server.writes()).toEqual([]);
    await user.click(await screen.findByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('Item removed', {}, slow)).toBeTruthy();
    expect(server.writes()).toEqual([{ method: 'DELETE', path: `${BASE}/c-sales/items/i-petro`, body: undefined }]);
    await waitFor(() => expect(within(card).queryByText('Petro')).toBeNull(), slow);
  });

  it('edits an item by sending the whole list with the ids kept', async () => {
    const server = fakeServer([sales]);
    const user = userEvent.setup();
    render();
    const card = await screen.findByTestId('collection-c-sales', {}, slow);
    await user.click(within(card).getByRole('button', { name: 'Edit “Petro”' }));
    const dialog = await screen.findByRole('dialog');
    const weight = within(dialog).getByLabelText('Weight');
    await user.clear(weight);
    await user.type(weight, '2');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(server.writes()).toHaveLength(1), slow);
    expect(server.writes()[0]).toEqual({
      method: 'PUT',
      path: `${BASE}/c-sales`,
      body: {
        items: [
          { id: 'i-anna', name: 'Anna', value: '101', weight: 3 },
          { id: 'i-petro', name: 'Petro', value: '102', weight: 2 },
        ],
      },
    });
  });

  it('deletes a collection after confirmation, and explains a refusal', async () => {
    const server = fakeServer([sales, { ...sales, _id: 'c-used', name: 'In use', items: [] }]);
    const user = userEvent.setup();
    render();
    const used = await screen.findByTestId('collection-c-used', {}, slow);
    await user.click(within(used).getByRole('button', { name: 'Delete “In use”' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Delete' }));
    expect(await screen.findByText(/used by an integration/, {}, slow)).toBeTruthy();
    expect(screen.getByTestId('collection-c-used')).toBeTruthy();

    const card = screen.getByTestId('collection-c-sales');
    await user.click(within(card).getByRole('button', { name: 'Delete “Sales”' }));
    const confirms = await screen.findAllByRole('button', { name: 'Delete' });
    fireEvent.click(confirms[confirms.length - 1] as HTMLElement);
    expect(await screen.findByText('Collection deleted', {}, slow)).toBeTruthy();
    expect(server.writes().map((c) => `${c.method} ${c.path}`)).toEqual([
      `DELETE ${BASE}/c-used`,
      `DELETE ${BASE}/c-sales`,
    ]);
    await waitFor(() => expect(screen.queryByTestId('collection-c-sales')).toBeNull(), slow);
  });

  it('links a manager’s Telegram with a one-time link when a bot sends cards to the collection, and unlinks', async () => {
    const linked: Collection = {
      ...sales,
      items: [
        { ...sales.items[0]!, telegram: { chatId: 5, username: 'anna_sales', language: 'uk', linkedAt: '2026-01-01' } },
        sales.items[1]!,
      ],
    };
    const server = fakeServer(
      [linked],
      [{ integrationId: 'tg-1', name: 'Bot', botUsername: 'sales_bot', collectionId: 'c-sales' }],
    );
    const user = userEvent.setup();
    render();
    expect(await screen.findByText('@anna_sales', {}, slow)).toBeTruthy();
    await user.click(await screen.findByRole('button', { name: /Link Telegram/ }, slow));
    const dialog = await screen.findByRole('dialog', { name: 'Telegram for Petro' });
    expect(within(dialog).getByTestId('telegram-link-url').textContent).toBe('https://t.me/sales_bot?start=CODE123');
    expect(within(dialog).getByTestId('telegram-link-code').textContent).toContain('/start CODE123');
    expect(server.writes()).toContainEqual({
      method: 'POST',
      path: '/api/telegram/link-codes',
      body: { integrationId: 'tg-1', collectionId: 'c-sales', itemId: 'i-petro' },
    });
    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    await user.click(screen.getByRole('button', { name: 'Unlink Telegram from Anna' }));
    await user.click(await screen.findByRole('button', { name: 'Unlink Telegram' }, slow));
    await waitFor(() =>
      expect(server.writes()).toContainEqual({
        method: 'POST',
        path: '/api/telegram/unlink',
        body: { collectionId: 'c-sales', itemId: 'i-anna' },
      }),
    );
    await waitFor(() => expect(screen.queryByText('@anna_sales')).toBeNull());
  });

  it('shows no Telegram column while no bot sends cards to the collection', async () => {
    fakeServer([sales]);
    render();
    expect(await screen.findByText('Anna', {}, slow)).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Link Telegram/ })).toBeNull();
  });

  it('sets a member’s working hours: a week of shifts in Kyiv time, saved with the list', async () => {
    const server = fakeServer([sales]);
    const user = userEvent.setup();
    render();
    const card = await screen.findByTestId('collection-c-sales', {}, slow);
    expect(within(card).getAllByText('Always on duty')).toHaveLength(2);
    await user.click(within(card).getByRole('button', { name: 'Working hours of “Anna”' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('switch'));
    // Office hours to start with; Monday ends at 17:00, and a Saturday shift is added.
    fireEvent.change(within(dialog).getByLabelText('Monday, shift 1: until'), { target: { value: '17:00' } });
    await user.click(within(dialog).getByRole('button', { name: 'Add a shift on Saturday' }));
    // 24-hour text, the hour padded as typed ("9:30" is 09:30), whatever the browser's own clock.
    fireEvent.change(within(dialog).getByLabelText('Saturday, shift 1: from'), { target: { value: '9:30' } });
    fireEvent.change(within(dialog).getByLabelText('Saturday, shift 1: until'), { target: { value: '14:00' } });
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Saved', {}, slow)).toBeTruthy();
    const office = { from: '09:00', to: '18:00' };
    expect(server.writes()).toEqual([
      {
        method: 'PUT',
        path: `${BASE}/c-sales`,
        body: {
          items: [
            {
              ...sales.items[0],
              hours: {
                timeZone: 'Europe/Kyiv',
                week: [
                  [{ from: '09:00', to: '17:00' }],
                  [office],
                  [office],
                  [office],
                  [office],
                  [{ from: '09:30', to: '14:00' }],
                  [],
                ],
                daysOff: [],
              },
            },
            sales.items[1],
          ],
        },
      },
    ]);
    expect(
      await within(card).findByText('Mon 09:00–17:00; Tue–Fri 09:00–18:00; Sat 09:30–14:00', {}, slow),
    ).toBeTruthy();
  });

  it('refuses a shift that starts and ends at once, without calling the server', async () => {
    const server = fakeServer([sales]);
    const user = userEvent.setup();
    render();
    const card = await screen.findByTestId('collection-c-sales', {}, slow);
    await user.click(within(card).getByRole('button', { name: 'Working hours of “Petro”' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('switch'));
    fireEvent.change(within(dialog).getByLabelText('Tuesday, shift 1: until'), { target: { value: '09:00' } });
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(
      (await within(dialog).findAllByText('A shift must start and end at different times', {}, slow)).length,
    ).toBeGreaterThan(0);
    expect(server.writes()).toEqual([]);
  });

  it('flips a member away with one switch', async () => {
    const server = fakeServer([sales]);
    const user = userEvent.setup();
    render();
    const card = await screen.findByTestId('collection-c-sales', {}, slow);
    await user.click(within(card).getByRole('switch', { name: '“Petro” is away' }));
    expect(await screen.findByText('Petro is away: no new leads until back', {}, slow)).toBeTruthy();
    expect(server.writes()).toEqual([
      { method: 'PUT', path: `${BASE}/c-sales/items/i-petro/away`, body: { away: true } },
    ]);
    await waitFor(() =>
      expect(within(card).getByRole('switch', { name: '“Petro” is away' }).getAttribute('aria-checked')).toBe('true'),
    );
  });
});
