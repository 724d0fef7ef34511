import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadManifest } from '../../lib/connectors/manifests';
import { callsTo, makeIntegration, makeSetting, routeFetch } from '../../test/integration-fixtures';
import { renderRoute } from '../../test/render';
import { ConnectorDetailPage } from './connector-pages';

afterEach(() => vi.unstubAllGlobals());

const ID = '77777777-7777-4777-8777-777777777777';
// The generic page drawn from the connector's manifest, as /admin/integrations/:type/:id draws it.
const manifest = await loadManifest('alfasms');
if (!manifest?.page) throw new Error('the alfasms manifest describes no page');
const page = <ConnectorDetailPage manifest={{ ...manifest, page: manifest.page }} />;
const connectPut = `PUT /api/admin/integration/${ID}/connect`;
const settings = {
  sender: 'LeadRelay',
  recipients: 'lead',
  leadTemplate: '{name}, дякуємо!',
  viber: false,
  international: false,
  quietHours: { enabled: true, from: '21:00', to: '09:00' },
};
const sms = (overrides = {}) =>
  makeIntegration({
    _id: ID,
    name: 'SMS клієнтам',
    type: 'alfasms',
    kind: 'destination',
    isConnected: true,
    settings,
    ...overrides,
  });

function setup(integration = sms()) {
  return routeFetch({
    'GET /api/legacy/api/admin/integration/settings': [makeSetting('alfasms', 'destination')],
    [`GET /api/integrations/${ID}`]: integration,
    [`GET /api/integrations/${ID}/alfasms/lists/balance`]: { amount: 1234.5, currency: 'UAH' },
    [`GET /api/integrations/${ID}/records/sms`]: {
      total: 1,
      data: [
        {
          _id: 'm1',
          integration: { _id: ID, name: 'SMS клієнтам' },
          hookId: 'h1',
          leadId: 'l1',
          recipient: 'lead',
          phone: '380501234567',
          channel: 'sms',
          text: 'Олена, дякуємо!',
          msgId: '100000001',
          parts: 1,
          status: 'delivered',
          providerStatus: 'DELIVERED',
          cost: 1.35,
          createdAt: '2026-05-01T10:00:00.000Z',
          updatedAt: '2026-05-01T10:01:00.000Z',
        },
      ],
    },
    [connectPut]: (_u: URL, init: RequestInit) => ({
      ok: true,
      status: 'ok',
      integration: { ...integration, settings: JSON.parse(init.body as string).settings ?? integration.settings },
    }),
  });
}

const templateBox = (name: string) => screen.findByRole('textbox', { name }, { timeout: 5000 });

describe('AlphaSMS integration page', { timeout: 30_000 }, () => {
  it('shows the balance, and the key only as saved (write-only)', async () => {
    setup();
    renderRoute('/admin/integrations/alfasms/:id', page, `/admin/integrations/alfasms/${ID}`, 'uk');
    expect(await screen.findByText('Баланс AlphaSMS', {}, { timeout: 5000 })).toBeTruthy();
    // 1 234,50 ₴ in Ukrainian number style (the group separator is a no-break space).
    await vi.waitFor(() => expect(document.body.textContent).toMatch(/1\s234,50\s₴/));
    expect(screen.getByText('Задано')).toBeTruthy();
    expect(screen.queryByLabelText('API-ключ')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Замінити' }));
    expect(screen.getByLabelText('API-ключ')).toBeTruthy();
  });

  it('previews the text with a sample lead and counts its SMS parts as the user types', async () => {
    setup();
    renderRoute('/admin/integrations/alfasms/:id', page, `/admin/integrations/alfasms/${ID}?tab=messages`, 'uk');
    const box = await templateBox('Текст клієнтові');
    const preview = () => screen.getByTestId('sms-preview').textContent;
    const counter = () => screen.getByTestId('sms-counter').textContent ?? '';
    expect(preview()).toBe('Олена Коваленко, дякуємо!');
    expect(counter()).toContain('1 SMS');
    expect(counter()).toContain('Кирилиця');

    fireEvent.change(box, { target: { value: 'ж'.repeat(70) } });
    expect(counter()).toContain('70 символів');
    expect(counter()).toContain('1 SMS');
    fireEvent.change(box, { target: { value: 'ж'.repeat(71) } });
    expect(counter()).toContain('2 SMS');
    fireEvent.change(box, { target: { value: 'a'.repeat(160) } });
    expect(counter()).toContain('1 SMS');
    expect(counter()).toContain('Латиниця');
    fireEvent.change(box, { target: { value: `${'a'.repeat(159)}€` } });
    expect(counter()).toContain('2 SMS');

    fireEvent.change(box, { target: { value: 'Привіт, ' } });
    fireEvent.click(screen.getByRole('button', { name: '{utm_source}' }));
    expect((box as HTMLTextAreaElement).value).toContain('{utm_source}');
    expect(preview()).toContain('instagram');
    fireEvent.change(box, { target: { value: 'Привіт, {імʼя}' } });
    expect(screen.getByText('Невідомі поля: {імʼя}. Вони підуть у текст як є.')).toBeTruthy();
  });

  it('saves the sender, recipients with both templates and quiet hours; a missing template is refused on the spot', async () => {
    const fetch = setup();
    renderRoute('/en/admin/integrations/alfasms/:id', page, `/en/admin/integrations/alfasms/${ID}?tab=messages`, 'en');
    await templateBox('Text to the customer');
    fireEvent.click(screen.getByLabelText('Customer and manager'));
    const manager = await templateBox('Text to the manager');
    fireEvent.change(manager, { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('This field is required', {}, { timeout: 5000 })).toBeTruthy();
    expect(callsTo(fetch, connectPut)).toHaveLength(0);

    fireEvent.change(manager, { target: { value: 'New lead {name} {phone}' } });
    fireEvent.change(screen.getByLabelText("Manager's mobile"), { target: { value: '067 111 22 33' } });
    fireEvent.click(screen.getByRole('switch', { name: 'Viber first' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(callsTo(fetch, connectPut)).toHaveLength(1));
    expect(callsTo(fetch, connectPut)[0]?.body).toEqual({
      settings: {
        sender: 'LeadRelay',
        recipients: 'both',
        leadTemplate: '{name}, дякуємо!',
        managerTemplate: 'New lead {name} {phone}',
        managerPhone: '067 111 22 33',
        viber: true,
        international: false,
        quietHours: { enabled: true, from: '21:00', to: '09:00' },
      },
    });
  });

  it('a bad alpha-name is refused before sending', async () => {
    const fetch = setup();
    renderRoute('/en/admin/integrations/alfasms/:id', page, `/en/admin/integrations/alfasms/${ID}?tab=messages`, 'en');
    await templateBox('Text to the customer');
    fireEvent.change(screen.getByLabelText('Sender alpha-name'), { target: { value: 'Компанія' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(/Up to 11 Latin letters/, {}, { timeout: 5000 })).toBeTruthy();
    expect(callsTo(fetch, connectPut)).toHaveLength(0);
  });

  it('lists the SMS log with state and cost, and a broken connection says why in words', async () => {
    setup(sms({ status: 'broken', statusReason: 'ALPHASMS_LOW_BALANCE' }));
    renderRoute('/admin/integrations/alfasms/:id', page, `/admin/integrations/alfasms/${ID}?tab=log`, 'uk');
    expect(
      await screen.findByText('На балансі AlphaSMS забракло коштів — поповніть його', {}, { timeout: 5000 }),
    ).toBeTruthy();
    const row = (await screen.findByText('Олена, дякуємо!', {}, { timeout: 5000 })).closest('tr') as HTMLElement;
    expect(within(row).getByText('Доставлено')).toBeTruthy();
    expect(within(row).getByText('+380501234567')).toBeTruthy();
    expect(within(row).getByText('1,35')).toBeTruthy();
  });
});
