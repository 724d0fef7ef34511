import { configure, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetAuthForTests } from '../../lib/auth';
import { heldHookList, hookDetail, hookList } from '../../test/hook-fixtures';
import { jsonResponse, renderPage } from '../../test/render';
import { HooksTable } from './hooks-table';

type Call = { method: string; url: string; body: unknown };
let calls: Call[];
let hooks = hookList();
let detail = hookDetail();

beforeEach(() => {
  resetAuthForTests();
  calls = [];
  hooks = hookList();
  detail = hookDetail();
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const method = init.method ?? 'GET';
      calls.push({ method, url, body: init.body ? JSON.parse(init.body as string) : undefined });
      const path = url.split('?')[0];
      if (method === 'GET' && path === '/api/hook') return jsonResponse(200, { data: hooks, total: hooks.length });
      if (method === 'GET' && path === `/api/hook/${detail._id}`) return jsonResponse(200, detail);
      if (method === 'PUT' && path === '/api/hook') return jsonResponse(200, { renewed: 2 });
      if (method === 'POST' && path === '/api/hook') return jsonResponse(200, { deleted: 2 });
      if (method === 'DELETE' && path === '/api/hook') return jsonResponse(200, { deleted: 3 });
      if (method === 'POST' && path === `/api/hook/${detail._id}/reaction`)
        return jsonResponse(200, {
          recorded: true,
          reaction: { kind: 'taken', byName: 'Anna', via: 'web', at: '2026-03-10T10:05:00.000Z' },
        });
      return jsonResponse(404, { statusCode: 404, code: 'NOT_FOUND', message: 'no' });
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());
// The machine running the tests may be busy.
const WAIT = { timeout: 5000 };
configure({ asyncUtilTimeout: 5000 });

const rows = async () => screen.findAllByTestId('hook-row');
const rowOf = async (text: string) => {
  const all = await rows();
  const row = all.find((r) => r.textContent?.includes(text));
  if (!row) throw new Error(`no row with ${text}`);
  return row;
};
const listCalls = () => calls.filter((c) => c.method === 'GET' && c.url.startsWith('/api/hook?'));

describe('HooksTable', { timeout: 30_000 }, () => {
  it('shows the overall status and every destination with its own status, next try and error', async () => {
    renderPage(<HooksTable />, { locale: 'en', path: '/en/admin' });
    const partial = await rowOf('Olena Petrenko');
    expect(within(partial).getByText('Partly delivered')).toBeTruthy();
    expect(within(partial).getByText('+380501234567')).toBeTruthy();
    expect(within(partial).getByText('olena@example.com')).toBeTruthy();
    const chips = within(partial).getAllByTestId('delivery-chip');
    expect(chips.map((c) => [c.dataset.status, c.textContent])).toEqual([
      ['delivered', 'Main CRM · Delivered'],
      ['failed', 'Backup hook · Failed'],
    ]);
    // The failed destination explains itself on hover.
    fireEvent.mouseEnter(chips[1]!);
    // A system's own message is not read out (issue 17: never English on a Ukrainian page).
    expect(await screen.findByText('Last error: Something went wrong')).toBeTruthy();
    expect(screen.queryByText(/ECONNREFUSED/)).toBeNull();

    const pending = await rowOf('Taras');
    const [pendingChip] = within(pending).getAllByTestId('delivery-chip');
    expect(pendingChip!.dataset.status).toBe('pending');
    expect(pendingChip!.textContent).toMatch(/^Main CRM · Pending · next try \d/);

    const filtered = await rowOf('0631112233');
    expect(within(filtered).getByText('Filtered')).toBeTruthy();
    fireEvent.mouseEnter(within(filtered).getByText('Filtered'));
    expect(await screen.findByText('A filter dropped the lead: name is not empty')).toBeTruthy();
    expect(within(filtered).queryAllByTestId('delivery-chip')).toHaveLength(0);
    // Newest first, as the server sends it; the list asks for the first page of the kept size.
    expect(listCalls()[0]!.url).toBe('/api/hook?page=1&limit=10');
  });

  it('shows a held lead with why it waits, and one given up after the retention, in English and Ukrainian', async () => {
    hooks = heldHookList();
    const { unmount } = renderPage(<HooksTable />, { locale: 'en', path: '/en/admin' });
    const held = await rowOf('Held Olha');
    expect(within(held).getByText('Held: plan expired')).toBeTruthy();
    expect(
      within(held)
        .getAllByTestId('delivery-chip')
        .map((c) => c.textContent),
    ).toEqual(['Main CRM · Held']);
    fireEvent.mouseEnter(within(held).getByText('Held: plan expired'));
    expect(await screen.findByText(/Delivered in arrival order within a minute of payment/)).toBeTruthy();
    const dropped = await rowOf('Old Ivan');
    fireEvent.mouseEnter(within(dropped).getByText('Failed'));
    expect(await screen.findByText('Not delivered: held longer than 30 days')).toBeTruthy();
    unmount();

    renderPage(<HooksTable />, { locale: 'uk', path: '/admin' });
    const heldUk = await rowOf('Held Olha');
    expect(within(heldUk).getByText('Утримано: тариф закінчився')).toBeTruthy();
    expect(within(heldUk).getAllByTestId('delivery-chip')[0]!.textContent).toBe('Main CRM · Утримано');
    fireEvent.mouseEnter(within(await rowOf('Old Ivan')).getByText('Помилка'));
    expect(await screen.findByText('Не доставлено: утримувався довше ніж 30 днів')).toBeTruthy();
  });

  it('an SMS skipped for a landline and one waiting out quiet hours explain themselves as notes, not errors', async () => {
    const [first, second] = hookList();
    hooks = [
      {
        ...first!,
        status: 'delivered',
        deliveries: [
          {
            ...first!.deliveries[0]!,
            destination: { _id: 'sms', name: 'SMS', type: 'alfasms' },
            externalId: null,
            lastError: 'SMS_PHONE_NOT_MOBILE: +380442345678',
          },
        ],
      },
      {
        ...second!,
        deliveries: [
          {
            ...second!.deliveries[0]!,
            destination: { _id: 'sms', name: 'SMS', type: 'alfasms' },
            lastError: 'SMS_QUIET_HOURS',
          },
        ],
      },
    ];
    renderPage(<HooksTable />, { locale: 'uk', path: '/admin' });
    const [skipped] = within(await rowOf('Olena Petrenko')).getAllByTestId('delivery-chip');
    expect(skipped!.dataset.note).toBe('SMS_PHONE_NOT_MOBILE');
    fireEvent.mouseEnter(skipped!);
    expect(await screen.findByText('SMS не надіслано: номер не мобільний (+380442345678)')).toBeTruthy();
    const [waiting] = within(await rowOf('Taras')).getAllByTestId('delivery-chip');
    expect(waiting!.dataset.note).toBe('SMS_QUIET_HOURS');
    fireEvent.mouseEnter(waiting!);
    expect(await screen.findByText('Тихі години: SMS піде, щойно вони скінчаться')).toBeTruthy();
    expect(screen.queryByText(/Остання помилка/)).toBeNull();
  });

  it('translates statuses in Ukrainian', async () => {
    renderPage(<HooksTable />, { locale: 'uk', path: '/admin' });
    const partial = await rowOf('Olena Petrenko');
    expect(within(partial).getByText('Доставлено частково')).toBeTruthy();
    expect(within(partial).getAllByTestId('delivery-chip')[1]!.textContent).toBe('Backup hook · Помилка');
    expect(within(await rowOf('Taras')).getAllByTestId('delivery-chip')[0]!.textContent).toMatch(
      /· Очікує · наступна спроба/,
    );
  });

  it('flags a lead with no phone, e-mail or name, and shows why its CRM refused it, in both languages (issue 27)', async () => {
    const [first] = hookList();
    hooks = [
      {
        ...first!,
        lead: { comment: 'Call me', custom: { city: 'Kyiv' } },
        warnings: ['NO_CONTACT'],
        status: 'failed',
        deliveries: [{ ...first!.deliveries[0]!, status: 'failed', lastError: 'LEAD_NO_CONTACT' }],
      },
    ];
    const view = renderPage(<HooksTable />, { locale: 'en', path: '/en/admin' });
    const row = (await rows())[0]!;
    expect(within(row).getByText('No contact')).toBeTruthy();
    fireEvent.mouseOver(within(row).getByTestId('delivery-chip'));
    expect(
      await screen.findByText(/Not sent: the lead has no phone, e-mail or name, and an empty contact is of no use/),
    ).toBeTruthy();
    view.unmount();
    renderPage(<HooksTable />, { locale: 'uk', path: '/admin' });
    expect(within((await rows())[0]!).getByText('Без контакту')).toBeTruthy();
  });

  it('opens the drawer with the lead, the raw request and each attempt in order with its HTTP code', async () => {
    // Whatever order they arrive in, the timeline reads oldest first.
    const failed = detail.deliveries[1]!;
    failed.attemptsLog = [failed.attemptsLog[2]!, failed.attemptsLog[0]!, failed.attemptsLog[1]!];
    renderPage(<HooksTable />, { locale: 'en', path: '/en/admin' });
    fireEvent.click(within(await rowOf('Olena Petrenko')).getByText('Olena Petrenko'));
    const cards = await screen.findAllByTestId('delivery-card');
    expect(calls.some((c) => c.url === `/api/hook/${detail._id}`)).toBe(true);
    expect(cards).toHaveLength(2);
    expect(within(cards[0]!).getByText('1 attempt')).toBeTruthy();
    const attempts = within(cards[1]!).getAllByTestId('attempt');
    expect(attempts.map((a) => a.querySelector('strong')?.textContent)).toEqual([
      'Attempt 1',
      'Attempt 2',
      'Attempt 3',
    ]);
    expect(attempts.map((a) => within(a).getByTestId('attempt-http').textContent)).toEqual([
      'HTTP 503',
      'HTTP 502',
      'HTTP 422',
    ]);
    expect(within(attempts[2]!).getByText('Failed for good')).toBeTruthy();
    // An error's code is said in words; the destination's own words only under "Technical details".
    expect(
      within(attempts[2]!).getByText('Uspacy refused the lead’s data', { selector: '.lr-attempt-error' }),
    ).toBeTruthy();
    const details = within(attempts[2]!).getByTestId('reason-details');
    expect(details.querySelector('summary')?.textContent).toBe('Technical details');
    expect(details.querySelector('code')?.textContent).toBe('title: The title field is required.');
    expect(details.hasAttribute('open')).toBe(false);
    // A bare HTTP status is said in words too, the status kept.
    expect(
      within(attempts[0]!).getByText('The server failed (HTTP 503)', { selector: '.lr-attempt-error' }),
    ).toBeTruthy();
    expect(within(attempts[1]!).getByText('1,250 ms')).toBeTruthy();
    // The lead's normalised fields and the raw request, secrets as the server redacted them.
    const drawer = screen.getByRole('dialog');
    expect(within(drawer).getByText('olena@example.com')).toBeTruthy();
    fireEvent.click(within(drawer).getByText('Raw request'));
    expect((await within(drawer).findByText(/"authorization": "\[redacted\]"/)).tagName).toBe('PRE');
    // Expanding an attempt shows its stored response.
    fireEvent.click(within(attempts[1]!).getByText('Response'));
    expect(await within(attempts[1]!).findByText(/bad gateway/)).toBeTruthy();
  });

  it('shows who took a lead and called back, and takes one from the drawer (issue 19)', async () => {
    hooks = hookList();
    hooks[0]!.reactions = [
      { kind: 'taken', byName: 'Olena Kovalenko', via: 'telegram', at: '2026-03-10T10:03:00.000Z' },
      { kind: 'called', byName: 'Olena Kovalenko', via: 'crm', at: '2026-03-10T10:09:00.000Z' },
    ];
    renderPage(<HooksTable />, { locale: 'uk', path: '/admin' });
    const row = (await rows())[0]!;
    const tags = within(row).getByTestId('lead-reactions');
    expect(tags.textContent).toContain('Взяв: Olena Kovalenko');
    expect(tags.textContent).toContain('Передзвонив: Olena Kovalenko');
    expect(tags.textContent).toContain('через Telegram');
    // A stage change read from the CRM (amoCRM, Pipedrive).
    expect(tags.textContent).toContain('у CRM');

    // A lead nobody took yet: the drawer's button records the reaction from the web.
    fireEvent.click(within(await rowOf('Olena Petrenko')).getByText('Olena Petrenko'));
    expect(await screen.findByText('Ще ніхто не взяв')).toBeTruthy();
    // A lead of a source that does not pass leads on has no row about it.
    expect(screen.queryByText('Передача ліда')).toBeNull();
    fireEvent.click(await screen.findByRole('button', { name: 'Беру' }));
    await vi.waitFor(() =>
      expect(calls).toContainEqual({
        method: 'POST',
        url: `/api/hook/${detail._id}/reaction`,
        body: { kind: 'taken' },
      }),
    );
  });

  it('tells in the drawer who holds a lead now, until when, and who had it before (issue 19)', async () => {
    detail.assignment = {
      holders: [
        { name: 'Iryna Bondar', from: '2026-03-10T10:00:00.000Z', until: '2026-03-10T10:15:00.000Z' },
        { name: 'Andriy Melnyk', from: '2026-03-10T10:15:00.000Z', until: null },
      ],
      escalateAt: '2026-03-10T10:30:00.000Z',
    };
    renderPage(<HooksTable />, { locale: 'uk', path: '/admin' });
    fireEvent.click(within(await rowOf('Olena Petrenko')).getByText('Olena Petrenko'));
    const drawer = await screen.findByRole('dialog');
    expect(await within(drawer).findByText(/^Andriy Melnyk, з /)).toBeTruthy();
    expect(within(drawer).getByText(/^Якщо не візьме, о .+ лід перейде до наступного$/)).toBeTruthy();
    expect(within(drawer).getByText('Раніше лід мали')).toBeTruthy();
    const before = within(drawer.querySelector<HTMLElement>('.lr-lead-holders')!).getAllByRole('listitem');
    expect(within(drawer).getByText('Передача ліда')).toBeTruthy();
    expect(before.map((li) => li.textContent?.split(':')[0])).toEqual(['Iryna Bondar']);
  });

  it('renews and deletes exactly the selected hooks, then says so', async () => {
    renderPage(<HooksTable />, { locale: 'en', path: '/en/admin' });
    const renew = await screen.findByRole('button', { name: /Renew selected/ });
    expect(renew.hasAttribute('disabled')).toBe(true);
    for (const name of ['Olena Petrenko', 'Taras']) {
      fireEvent.click(within(await rowOf(name)).getByRole('checkbox'));
    }
    expect(screen.getByText('2 selected')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /Renew selected/ }));
    expect(await screen.findByText('Saved successfully')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'PUT')).toEqual([
      { method: 'PUT', url: '/api/hook', body: { ids: [hooks[0]!._id, hooks[1]!._id] } },
    ]);
    // Renew clears the selection; choose again and delete.
    expect(screen.getByRole('button', { name: /Renew selected/ }).hasAttribute('disabled')).toBe(true);
    fireEvent.click(within(await rowOf('0631112233')).getByRole('checkbox'));
    fireEvent.click(screen.getByRole('button', { name: /Delete selected/ }));
    fireEvent.click(await screen.findByRole('button', { name: 'OK' }));
    expect(await screen.findByText('Deleted successfully')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST')).toEqual([
      { method: 'POST', url: '/api/hook', body: { ids: [hooks[2]!._id] } },
    ]);
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
  });

  it('deletes all only after confirmation', async () => {
    renderPage(<HooksTable />, { locale: 'uk', path: '/admin' });
    await rows();
    fireEvent.click(screen.getByRole('button', { name: 'Видалити всі' }));
    expect(await screen.findByText(/Видалити всі ліди та історію їх доставки/)).toBeTruthy();
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Гаразд' }));
    expect(await screen.findByText('Успішно видалено')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.url)).toEqual(['/api/hook']);
    // The list is asked again after the change.
    await vi.waitFor(() => expect(listCalls().length).toBeGreaterThan(1), WAIT);
  });

  it('filters by status and search, from the first page', async () => {
    renderPage(<HooksTable integrationId="44444444-4444-4444-8444-444444444444" />, { locale: 'en', path: '/en/x' });
    await rows();
    // Filtered to one source: no source column.
    expect(screen.queryByRole('columnheader', { name: 'Source' })).toBeNull();
    const search = screen.getByRole('searchbox', { name: 'Name, phone or e-mail' });
    fireEvent.change(search, { target: { value: ' olena ' } });
    fireEvent.keyDown(search, { key: 'Enter', code: 'Enter', keyCode: 13 });
    await vi.waitFor(
      () =>
        expect(listCalls().at(-1)!.url).toBe(
          '/api/hook?page=1&limit=10&integrationId=44444444-4444-4444-8444-444444444444&search=olena',
        ),
      WAIT,
    );
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'All statuses' }));
    fireEvent.click(await screen.findByTitle('Failed'));
    await vi.waitFor(
      () =>
        expect(listCalls().at(-1)!.url).toBe(
          '/api/hook?page=1&limit=10&integrationId=44444444-4444-4444-8444-444444444444&status=failed&search=olena',
        ),
      WAIT,
    );
  });

  it('shows an empty state, and in compact mode five rows without controls and a link to all', async () => {
    hooks = [];
    const { unmount } = renderPage(<HooksTable />, { locale: 'en', path: '/en/admin' });
    expect(await screen.findByText('No leads yet')).toBeTruthy();
    unmount();
    hooks = hookList();
    renderPage(<HooksTable compact />, { locale: 'uk', path: '/admin' });
    await rows();
    expect(listCalls().at(-1)!.url).toBe('/api/hook?page=1&limit=5');
    expect(screen.queryByRole('checkbox')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Видалити всі' })).toBeNull();
    expect(screen.queryByRole('searchbox')).toBeNull();
    expect(screen.getByRole('link', { name: 'Переглянути всі' }).getAttribute('href')).toBe('/admin/integrations');
  });

  it('on a phone shows cards that select, renew and open the drawer', async () => {
    const real = window.matchMedia;
    window.matchMedia = ((query: string) => ({ ...real(query), matches: query.includes('max-width') })) as typeof real;
    try {
      renderPage(<HooksTable />, { locale: 'en', path: '/en/admin' });
      const card = await rowOf('Taras');
      expect(card.tagName).toBe('LI');
      expect(screen.queryByRole('table')).toBeNull();
      fireEvent.click(within(card).getByRole('checkbox'));
      fireEvent.click(screen.getByRole('button', { name: /Renew selected/ }));
      expect(await screen.findByText('Saved successfully')).toBeTruthy();
      expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ ids: [hooks[1]!._id] });
      fireEvent.click(within(await rowOf('Olena Petrenko')).getByText('Olena Petrenko'));
      expect(await screen.findAllByTestId('delivery-card')).toHaveLength(2);
    } finally {
      window.matchMedia = real;
    }
  });
});
