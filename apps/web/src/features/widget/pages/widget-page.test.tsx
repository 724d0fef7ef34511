import type { WidgetData } from '@leadrelay/shared';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderPage } from '../../../test/render';
import { personIdOf, WidgetPage } from './widget-page';

const olena = {
  id: 'tg-olena',
  name: 'Olena Kovalenko',
  username: 'olena_k',
  channel: 'telegram',
  lastActivityAt: '2026-11-20T09:15:00Z',
  conversationUrl: 'https://login.sendpulse.com/chatbots/telegram/chats?bot_id=b1&contact_id=tg-olena',
};
const data: WidgetData = {
  person: { id: 7, name: 'Olena Kovalenko', phones: ['+380501234567'], emails: ['olena@example.com'] },
  channel: 'telegram',
  contacts: [olena],
};

interface Call {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
}

function fakeServer(opts: { data?: WidgetData; dataError?: [number, string]; sendError?: [number, string] } = {}) {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const url = new URL(input, 'http://localhost');
      const method = init.method ?? 'GET';
      calls.push({
        method,
        path: url.pathname,
        query: url.searchParams,
        body: init.body ? JSON.parse(String(init.body)) : undefined,
      });
      if (url.pathname === '/api/legacy/api/pipedrive/sendpulse') {
        if (opts.dataError) return jsonResponse(opts.dataError[0], { code: opts.dataError[1], message: 'x' });
        return jsonResponse(200, opts.data ?? data);
      }
      if (url.pathname === '/api/legacy/api/pipedrive/sendpulse/message') {
        if (opts.sendError) return jsonResponse(opts.sendError[0], { code: opts.sendError[1], message: 'x' });
        return jsonResponse(200, { success: true });
      }
      return jsonResponse(404, { code: 'NOT_FOUND', message: 'x' });
    }),
  );
  return calls;
}

const open = (query: string, locale: 'uk' | 'en' = 'en') =>
  renderPage(<WidgetPage />, {
    locale,
    path: `${locale === 'en' ? '/en' : ''}/widgets/pipedrive-sendpulse?${query}`,
  });

beforeEach(() => vi.unstubAllGlobals());

describe('WidgetPage', { timeout: 30_000 }, () => {
  it('shows the person and their SendPulse contact, and sends a message to it', async () => {
    const calls = fakeServer();
    open('token=tok.en.sig&selectedIds=7&resource=person&token=pipedrive-own');
    expect(await screen.findByText('+380501234567')).toBeTruthy();
    expect(screen.getByText('@olena_k')).toBeTruthy();
    expect(screen.getByText('Telegram')).toBeTruthy();
    const link = screen.getByRole('link', { name: /Open conversation/ });
    expect(link.getAttribute('href')).toBe(olena.conversationUrl);
    expect(link.getAttribute('target')).toBe('_blank');
    // Our token (the first one), and the person Pipedrive selected.
    expect(calls[0]!.query.get('token')).toBe('tok.en.sig');
    expect(calls[0]!.query.get('personId')).toBe('7');

    const send = screen.getByRole('button', { name: /Send/ });
    expect(send.hasAttribute('disabled')).toBe(true);
    await userEvent.type(screen.getByLabelText('Message'), 'Your order is ready');
    await userEvent.click(send);
    expect(await screen.findByText('Message sent')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST')).toMatchObject([
      {
        body: { token: 'tok.en.sig', personId: 7, contactId: 'tg-olena', text: 'Your order is ready' },
      },
    ]);
    // The panel reloads the contacts (their last activity moved).
    await waitFor(() => expect(calls.filter((c) => c.method === 'GET')).toHaveLength(2));
    await waitFor(() => expect((screen.getByLabelText('Message') as HTMLTextAreaElement).value).toBe(''));
  });

  it('with several contacts, the message goes to the one picked', async () => {
    const calls = fakeServer({
      data: { ...data, contacts: [olena, { ...olena, id: 'tg-second', name: 'Olena (work)', username: undefined }] },
    });
    open('token=t&personId=7');
    await userEvent.click(await screen.findByRole('radio', { name: 'Olena (work)' }));
    await userEvent.type(screen.getByLabelText('Message'), 'Hi');
    await userEvent.click(screen.getByRole('button', { name: /Send/ }));
    await waitFor(() => expect(calls.find((c) => c.method === 'POST')?.body).toMatchObject({ contactId: 'tg-second' }));
  });

  it('keeps the text and shows why when sending fails', async () => {
    fakeServer({ sendError: [400, 'CONNECTION_FAILED'] });
    open('token=t&personId=7');
    await userEvent.type(await screen.findByLabelText('Message'), 'Hello');
    await userEvent.click(screen.getByRole('button', { name: /Send/ }));
    expect(await screen.findByRole('alert')).toBeTruthy();
    expect((screen.getByLabelText('Message') as HTMLTextAreaElement).value).toBe('Hello');
  });

  it('says so when the person has no SendPulse contact', async () => {
    fakeServer({ data: { ...data, contacts: [] } });
    open('token=t&personId=7');
    expect(await screen.findByText('No SendPulse contact for this person')).toBeTruthy();
    expect(screen.getByText(/Nobody in the Telegram chatbot/)).toBeTruthy();
    expect(screen.queryByLabelText('Message')).toBeNull();
  });

  it('a link without a token, or one the server no longer accepts, is a bad link', async () => {
    const calls = fakeServer({ dataError: [404, 'WIDGET_NOT_FOUND'] });
    const first = open('selectedIds=7');
    expect(await screen.findByText('This widget link does not work')).toBeTruthy();
    expect(calls).toHaveLength(0);
    first.unmount();
    open('token=old&selectedIds=7', 'uk');
    expect(await screen.findByText('Посилання віджета не працює')).toBeTruthy();
  });

  it('asks to open it on a person when Pipedrive passed none', async () => {
    const calls = fakeServer();
    open('token=t');
    expect(await screen.findByText('Open this panel on a person')).toBeTruthy();
    expect(calls).toHaveLength(0);
  });

  it('a person Pipedrive no longer has is explained', async () => {
    fakeServer({ dataError: [404, 'NOT_FOUND'] });
    open('token=t&personId=7');
    expect(await screen.findByText('This person was not found in Pipedrive.')).toBeTruthy();
    expect(screen.getByRole('button', { name: /Try again/ })).toBeTruthy();
  });
});

describe('personIdOf', () => {
  it('takes the first selected id, then personId, then id; ignores junk', () => {
    expect(personIdOf(new URLSearchParams('selectedIds=12,13'))).toBe(12);
    expect(personIdOf(new URLSearchParams('personId=5'))).toBe(5);
    expect(personIdOf(new URLSearchParams('id=9'))).toBe(9);
    expect(personIdOf(new URLSearchParams('selectedIds=abc&personId=0'))).toBeUndefined();
    expect(personIdOf(new URLSearchParams(''))).toBeUndefined();
  });
});
