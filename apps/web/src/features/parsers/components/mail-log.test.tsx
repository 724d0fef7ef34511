import type { ParserMail } from '@leadrelay/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { callsTo, routeFetch } from '../../../test/integration-fixtures';
import { renderPage } from '../../../test/render';
import { MailLog } from './mail-log';

afterEach(() => vi.unstubAllGlobals());

const ID = '99999999-9999-4999-8999-999999999999';
const MAIL = '88888888-8888-4888-8888-888888888888';
const failed: ParserMail = {
  _id: MAIL,
  via: 'smtp',
  from: 'orders@shop.example.com',
  subject: 'Замовлення №7',
  messageId: '<7@shop.example.com>',
  size: 2048,
  status: 'failed',
  reason: 'MAIL_PROCESSING_FAILED',
  detail: 'hooks are down (SQLSTATE 53300)',
  attempts: 5,
  hookId: null,
  fields: null,
  attachments: [{ filename: 'order.pdf', contentType: 'application/pdf', size: 100 }],
  receivedAt: '2026-11-27T10:00:00.000Z',
};

function mount(locale: 'uk' | 'en', afterRetry: ParserMail) {
  let current = failed;
  const fetch = routeFetch({
    [`GET /api/admin/parser/${ID}/mails`]: () => ({ data: [current], total: 1 }),
    [`POST /api/admin/parser/${ID}/mails/${MAIL}/retry`]: () => {
      current = afterRetry;
      return afterRetry;
    },
  });
  renderPage(<MailLog parserId={ID} />, { locale });
  return fetch;
}

describe('the mail log', () => {
  it('shows a failed mail with its reason, the details folded, and tries it again at a press', async () => {
    const fetch = mount('en', { ...failed, status: 'lead', reason: null, detail: null, hookId: MAIL });
    const row = await screen.findByTestId('parser-mail');
    expect(within(row).getByText('Failed')).toBeTruthy();
    expect(within(row).getByText(/The mail could not be processed/)).toBeTruthy();
    // The database's own words are there for support, folded under a label in the user's language.
    const details = within(row).getByTestId('reason-details');
    expect(details.hasAttribute('open')).toBe(false);
    expect(within(details).getByText('hooks are down (SQLSTATE 53300)')).toBeTruthy();

    fireEvent.click(within(row).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(callsTo(fetch, `POST /api/admin/parser/${ID}/mails/${MAIL}/retry`)).toHaveLength(1));
    expect(await screen.findByText('Tried again: Lead')).toBeTruthy();
    await waitFor(() => expect(within(screen.getByTestId('parser-mail')).getByText('Lead')).toBeTruthy());
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
  });

  it('in Ukrainian, says so when the retry failed again', async () => {
    mount('uk', { ...failed, detail: 'still down' });
    const row = await screen.findByTestId('parser-mail');
    expect(within(row).getByText('Помилка')).toBeTruthy();
    expect(within(row).getByText(/Лист не вдалося обробити/)).toBeTruthy();
    fireEvent.click(within(row).getByRole('button', { name: 'Спробувати ще раз' }));
    expect(await screen.findByText('Спробували ще раз, і знову не вдалося: дивіться подробиці')).toBeTruthy();
  });
});
