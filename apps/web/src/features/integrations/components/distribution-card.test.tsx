import type { Collection } from '@leadrelay/shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { makeIntegration } from '../../../test/integration-fixtures';
import { jsonResponse, makeUser, renderPage } from '../../../test/render';
import { DistributionCard } from './distribution-card';

const slow = { timeout: 5000 };
const sales: Collection = {
  _id: 'c-sales',
  name: 'Sales',
  items: [
    { id: 'i-anna', name: 'Anna', value: '101' },
    { id: 'i-petro', name: 'Petro', value: '102' },
  ],
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

function fakeServer(answer: (body: Record<string, unknown>) => Response) {
  const writes: { path: string; body: Record<string, unknown> }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const url = new URL(input, 'http://localhost');
      if ((init.method ?? 'GET') === 'GET') return jsonResponse(200, { data: [sales], total: 1 });
      const body = JSON.parse(String(init.body));
      writes.push({ path: url.pathname, body });
      return answer(body);
    }),
  );
  return writes;
}

const integration = makeIntegration({ distributionId: 'c-sales', options: { mapping: [] } });
const render = () =>
  renderPage(<DistributionCard integration={integration} />, { user: makeUser(), locale: 'en', path: '/en/admin' });

beforeEach(() => vi.unstubAllGlobals());

describe('DistributionCard: when nobody is on duty, and passing leads on', { timeout: 30_000 }, () => {
  it('saves a fallback person and the minutes into the options, keeping the rest of them', async () => {
    const writes = fakeServer((body) => jsonResponse(200, { ...integration, ...body }));
    const user = userEvent.setup();
    render();
    await user.click(await screen.findByRole('radio', { name: 'Give it to a fallback person' }, slow));
    await user.click(screen.getByRole('combobox', { name: 'Fallback person' }));
    await user.click(await screen.findByTitle('Petro'));
    await user.click(screen.getByRole('switch', { name: 'Pass an untaken lead to the next manager' }));
    const minutes = screen.getByRole('spinbutton', { name: 'Pass on after' });
    await user.clear(minutes);
    await user.type(minutes, '20');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(writes).toHaveLength(1));
    expect(writes[0]).toEqual({
      path: `/api/integrations/${integration._id}/update`,
      body: {
        options: {
          mapping: [],
          routing: { whenNobody: 'fallback', fallbackItemId: 'i-petro', escalateAfterMinutes: 20 },
        },
      },
    });
  });

  it('asks for the fallback person before saving, and shows the server’s refusal on the field', async () => {
    const writes = fakeServer(() =>
      jsonResponse(400, {
        code: 'FALLBACK_ITEM_NOT_FOUND',
        message: 'x',
        errors: [{ field: 'options.routing.fallbackItemId', code: 'FALLBACK_ITEM_NOT_FOUND' }],
      }),
    );
    const user = userEvent.setup();
    render();
    await user.click(await screen.findByRole('radio', { name: 'Give it to a fallback person' }, slow));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Choose who gets leads when nobody is on duty', {}, slow)).toBeTruthy();
    expect(writes).toEqual([]);
    await user.click(screen.getByRole('combobox', { name: 'Fallback person' }));
    await user.click(await screen.findByTitle('Anna'));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    const form = document.querySelector('.lr-routing') as HTMLElement;
    expect(
      await within(form).findByText('The fallback person is not in the distribution collection', {}, slow),
    ).toBeTruthy();
  });
});
