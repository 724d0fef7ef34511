import type { OwnerTelegram } from '@leadrelay/shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../../test/billing-fixtures';
import { jsonResponse, makeUser, renderPage } from '../../../test/render';
import { GuardianTelegramCard } from './guardian-telegram-card';

const slow = { timeout: 5000 };
const bot = { integrationId: 'tg1', botUsername: 'acme_leads_bot' };
const code = {
  code: 'AbCdEfGhIjKlMnOpQrSt',
  url: 'https://t.me/acme_leads_bot?start=AbCdEfGhIjKlMnOpQrSt',
  botUsername: 'acme_leads_bot',
  expiresAt: '2026-11-25T06:00:00.000Z',
};

beforeEach(() => vi.unstubAllGlobals());
afterEach(() => vi.restoreAllMocks());

describe('GuardianTelegramCard', { timeout: 30_000 }, () => {
  it('says a bot must be connected first, with a link to connect one, in Ukrainian', async () => {
    fakeApi({ 'GET /api/guardian/telegram': { linked: null, bot: null } satisfies OwnerTelegram });
    renderPage(<GuardianTelegramCard />, { user: makeUser(), locale: 'uk', path: '/admin/guardian' });
    const note = await screen.findByTestId('guardian-telegram-no-bot', {}, slow);
    expect(note.textContent).toContain('спершу підключіть Telegram-бота');
    const link = within(note).getByRole('link', { name: 'Підключити Telegram-бота' });
    expect(link.getAttribute('href')).toBe('/admin/integrations/telegram');
    expect(screen.queryByRole('button', { name: /Привʼязати мій Telegram/ })).toBeNull();
  });

  it('makes a one-time code and shows the deep link and the /start command, then reloads the link', async () => {
    let linked: OwnerTelegram = { linked: null, bot };
    const api = fakeApi({
      'GET /api/guardian/telegram': () => jsonResponse(200, linked),
      'POST /api/guardian/telegram/link-code': () => jsonResponse(201, code),
    });
    const user = userEvent.setup();
    renderPage(<GuardianTelegramCard />, { user: makeUser(), locale: 'en', path: '/en/admin/guardian' });
    expect(await screen.findByText(/from the bot @acme_leads_bot/, {}, slow)).toBeTruthy();
    await user.click(await screen.findByRole('button', { name: 'Link my Telegram' }));
    const url = await screen.findByTestId('guardian-telegram-url', {}, slow);
    expect(url.getAttribute('href')).toBe(code.url);
    expect(screen.getByTestId('guardian-telegram-code').textContent).toContain(`/start ${code.code}`);
    expect(api.writes()).toEqual([
      expect.objectContaining({ method: 'POST', path: '/api/guardian/telegram/link-code' }),
    ]);

    // The owner pressed Start in Telegram; "Done" shows the linked chat.
    linked = { linked: { username: 'anna_owner', linkedAt: '2026-11-25T05:50:00.000Z', integrationId: 'tg1' }, bot };
    await user.click(screen.getByRole('button', { name: 'Done' }));
    expect((await screen.findByTestId('guardian-telegram-linked', {}, slow)).textContent).toBe('@anna_owner');
  });

  it('unlinks after confirming', async () => {
    let linked: OwnerTelegram = {
      linked: { username: 'anna_owner', linkedAt: '2026-11-25T05:50:00.000Z', integrationId: 'tg1' },
      bot,
    };
    const api = fakeApi({
      'GET /api/guardian/telegram': () => jsonResponse(200, linked),
      'DELETE /api/guardian/telegram': () => {
        linked = { linked: null, bot };
        return jsonResponse(200, { success: true });
      },
    });
    const user = userEvent.setup();
    renderPage(<GuardianTelegramCard />, { user: makeUser(), locale: 'en', path: '/en/admin/guardian' });
    expect((await screen.findByTestId('guardian-telegram-linked', {}, slow)).textContent).toBe('@anna_owner');
    await user.click(screen.getByRole('button', { name: 'Unlink' }));
    const confirm = await screen.findByRole('tooltip', {}, slow);
    await user.click(within(confirm).getByRole('button', { name: 'Unlink' }));
    await waitFor(() =>
      expect(api.writes()).toEqual([expect.objectContaining({ method: 'DELETE', path: '/api/guardian/telegram' })]),
    );
    expect(await screen.findByRole('button', { name: 'Link my Telegram' }, slow)).toBeTruthy();
  });
});
