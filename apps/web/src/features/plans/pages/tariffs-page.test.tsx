import type { Plan } from '@leadrelay/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, makeUser, renderPage } from '../../../test/render';
import { TariffsPage } from './tariffs-page';

const slow = { timeout: 5000 };
const now = '2026-01-01T00:00:00.000Z';

interface Call {
  method: string;
  path: string;
  body: unknown;
}

const start: Plan = {
  _id: 'p-start',
  title: { uk: 'Старт', en: 'Start' },
  monthlyAmount: 9,
  annualAmount: 90,
  active: true,
  limits: { leadsPerMonth: 500, integrations: 3, destinationsPerSource: 2 },
  createdAt: now,
  updatedAt: now,
};
const used: Plan = { ...start, _id: 'p-used', title: { uk: 'Обраний', en: 'Chosen' } };

/** An in-memory /api/plans, recording every write; deleting 'p-used' answers 409 PLAN_IN_USE. */
function fakeServer(initial: Plan[]) {
  let rows = structuredClone(initial);
  let next = 1;
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const path = new URL(input, 'http://localhost').pathname;
      const method = init.method ?? 'GET';
      const body = init.body ? JSON.parse(String(init.body)) : undefined;
      calls.push({ method, path, body });
      const [, , , id, action] = path.split('/');
      if (method === 'GET') return jsonResponse(200, rows);
      if (method === 'POST') {
        const row: Plan = { _id: `p${next++}`, active: true, ...body, createdAt: now, updatedAt: now };
        rows = [...rows, row];
        return jsonResponse(201, row);
      }
      const row = rows.find((r) => r._id === id);
      if (!row) return jsonResponse(404, { code: 'PLAN_NOT_FOUND', message: 'x' });
      if (method === 'PUT' && action === 'toggle') {
        row.active = !row.active;
        return jsonResponse(200, row);
      }
      if (method === 'PUT') {
        Object.assign(row, body);
        return jsonResponse(200, row);
      }
      if (row._id === 'p-used') return jsonResponse(409, { statusCode: 409, code: 'PLAN_IN_USE', message: 'in use' });
      rows = rows.filter((r) => r !== row);
      return jsonResponse(200, { success: true });
    }),
  );
  return { writes: () => calls.filter((c) => c.method !== 'GET') };
}

const render = (locale: 'uk' | 'en' = 'en') =>
  renderPage(<TariffsPage />, {
    user: makeUser({ role: 'owner' }),
    locale,
    path: locale === 'en' ? '/en/admin/super/tariffs' : '/admin/super/tariffs',
  });

beforeEach(() => {
  vi.unstubAllGlobals();
});

describe('TariffsPage', { timeout: 30_000 }, () => {
  it('lists the plans with both titles, prices in USD and limits', async () => {
    fakeServer([start]);
    render();
    const row = await screen.findByTestId('tariff-p-start', {}, slow);
    expect(within(row).getByText('Старт')).toBeTruthy();
    expect(within(row).getByText('Start')).toBeTruthy();
    expect(within(row).getByText('$9.00')).toBeTruthy();
    expect(within(row).getByText('$90.00')).toBeTruthy();
    expect(within(row).getByText('500 leads a month')).toBeTruthy();
  });

  it('refuses an incomplete or wrong plan without calling the server', async () => {
    const server = fakeServer([]);
    const user = userEvent.setup();
    render();
    await user.click(await screen.findByRole('button', { name: /New plan/ }, slow));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText('Title in Ukrainian'), 'Нова');
    await user.type(within(dialog).getByLabelText('Monthly price, $'), '9.999');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    // The title in English is missing; three decimals are refused as the server refuses them.
    expect((await within(dialog).findAllByText('This field is required', {}, slow)).length).toBeGreaterThan(0);
    expect(
      within(dialog).getByText('0 to 1,000,000, at most two decimals', { selector: '.ant-form-item-explain-error' }),
    ).toBeTruthy();
    expect(server.writes()).toEqual([]);
  });

  it('creates a plan with POST, an unlimited limit sent as null', async () => {
    const server = fakeServer([]);
    const user = userEvent.setup();
    render();
    await user.click(await screen.findByRole('button', { name: /New plan/ }, slow));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText('Title in Ukrainian'), ' Агенція ');
    await user.type(within(dialog).getByLabelText('Title in English'), 'Agency');
    await user.type(within(dialog).getByLabelText('Monthly price, $'), '49.5');
    await user.type(within(dialog).getByLabelText('Annual price, $'), '495');
    await user.type(within(dialog).getByLabelText('Leads a month'), '10000');
    await user.type(within(dialog).getByLabelText('Integrations'), '20');
    const checks = within(dialog).getAllByRole('checkbox', { name: 'Unlimited' });
    await user.click(checks[2] as HTMLElement);
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Plan created', {}, slow)).toBeTruthy();
    expect(server.writes()).toEqual([
      {
        method: 'POST',
        path: '/api/plans',
        body: {
          title: { uk: 'Агенція', en: 'Agency' },
          monthlyAmount: 49.5,
          annualAmount: 495,
          limits: { leadsPerMonth: 10000, integrations: 20, destinationsPerSource: null },
        },
      },
    ]);
    expect(await screen.findByText('Agency', {}, slow)).toBeTruthy();
  });

  it('switches a plan off with PUT …/toggle', async () => {
    const server = fakeServer([start]);
    const user = userEvent.setup();
    render();
    await user.click(await screen.findByRole('switch', { name: 'Offer “Start”' }, slow));
    expect(await screen.findByText('The plan is no longer offered to clients', {}, slow)).toBeTruthy();
    expect(server.writes()).toEqual([{ method: 'PUT', path: '/api/plans/p-start/toggle', body: undefined }]);
    await waitFor(() =>
      expect(screen.getByRole('switch', { name: 'Offer “Start”' }).getAttribute('aria-checked')).toBe('false'),
    );
  });

  it('edits a plan with PUT, the title and limits sent whole', async () => {
    const server = fakeServer([start]);
    const user = userEvent.setup();
    render();
    await user.click(await screen.findByRole('button', { name: 'Edit “Start”' }, slow));
    const dialog = await screen.findByRole('dialog');
    const monthly = within(dialog).getByLabelText('Monthly price, $');
    await user.clear(monthly);
    await user.type(monthly, '12');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Plan saved', {}, slow)).toBeTruthy();
    expect(server.writes()).toEqual([
      {
        method: 'PUT',
        path: '/api/plans/p-start',
        body: { title: start.title, monthlyAmount: 12, annualAmount: 90, limits: start.limits },
      },
    ]);
  });

  it('explains in Ukrainian why a plan clients have cannot be deleted, and deletes another', async () => {
    const server = fakeServer([start, used]);
    const user = userEvent.setup();
    render('uk');
    await user.click(await screen.findByRole('button', { name: 'Видалити «Обраний»' }, slow));
    fireEvent.click(await screen.findByRole('button', { name: 'Видалити' }));
    expect(
      await screen.findByText(
        'Цей тариф уже обрали клієнти, тому видалити його не можна — вимкніть його замість видалення',
        {},
        slow,
      ),
    ).toBeTruthy();
    expect(screen.getByTestId('tariff-p-used')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Видалити «Старт»' }));
    const confirms = await screen.findAllByRole('button', { name: 'Видалити' });
    fireEvent.click(confirms.at(-1) as HTMLElement);
    expect(await screen.findByText('Тариф видалено', {}, slow)).toBeTruthy();
    expect(server.writes().map((c) => `${c.method} ${c.path}`)).toEqual([
      'DELETE /api/plans/p-used',
      'DELETE /api/plans/p-start',
    ]);
    await waitFor(() => expect(screen.queryByTestId('tariff-p-start')).toBeNull(), slow);
  });
});
