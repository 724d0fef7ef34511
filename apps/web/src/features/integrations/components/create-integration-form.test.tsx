import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { callsTo, makeIntegration, makeSetting, routeFetch } from '../../../test/integration-fixtures';
import { renderPage } from '../../../test/render';
import { CreateIntegrationForm } from './create-integration-form';

afterEach(() => vi.unstubAllGlobals());

const settings = [
  makeSetting('http', 'destination'),
  makeSetting('webhook', 'source'),
  makeSetting('amocrm', 'destination', { hidden: true, available: false, category: { _id: 'c-crm', name: 'CRM' } }),
];

describe('catalogue picker', { timeout: 20_000 }, () => {
  it('offers visible types grouped by category in the catalogue order, with their tags', async () => {
    routeFetch({
      'GET /api/legacy/api/admin/integration/settings': settings,
      'GET /api/legacy/api/admin/integration/categories': [
        { _id: 'c-sources', name: 'Sources', order: 1 },
        { _id: 'c-crm', name: 'CRM', order: 2 },
        { _id: 'c-webhooks', name: 'Webhooks', order: 5 },
      ],
    });
    renderPage(<CreateIntegrationForm onCreated={() => {}} />, { locale: 'uk', path: '/admin/create' });
    const groups = await screen.findAllByRole('group');
    expect(groups.map((g) => g.querySelector('legend')?.textContent)).toEqual(['Джерела', 'Вебхуки']);
    // The Ukrainian page names the type and its tags in Ukrainian (the glossary), each with a logo.
    expect(within(groups[0] as HTMLElement).getByRole('radio', { name: /Вебхук/ })).toBeTruthy();
    expect(within(groups[0] as HTMLElement).getByText('форми')).toBeTruthy();
    expect(within(groups[0] as HTMLElement).queryByText('forms')).toBeNull();
    expect(groups[0]?.querySelector('[data-logo="webhook"]')).toBeTruthy();
    expect(screen.queryByText('amocrm')).toBeNull();

    // The search keeps only the types that match, in either language's words.
    await userEvent.type(screen.getByRole('searchbox', { name: 'Пошук сервісу, тегу чи категорії' }), 'http');
    expect(screen.queryByRole('radio', { name: /^Вебхук/ })).toBeNull();
    expect(screen.getByRole('radio', { name: /HTTP-вебхук/ })).toBeTruthy();
    await userEvent.clear(screen.getByRole('searchbox', { name: 'Пошук сервісу, тегу чи категорії' }));
    await userEvent.type(screen.getByRole('searchbox', { name: 'Пошук сервісу, тегу чи категорії' }), 'нема такого');
    expect(screen.getByText('Нічого не знайдено за «нема такого»')).toBeTruthy();
  });

  it('creates an integration of the picked type with the typed name', async () => {
    const created = makeIntegration({ name: 'Форма на головній' });
    const fetch = routeFetch({
      'GET /api/legacy/api/admin/integration/settings': settings,
      'GET /api/legacy/api/admin/integration/categories': [],
      'POST /api/integrations': created,
    });
    const onCreated = vi.fn();
    renderPage(<CreateIntegrationForm onCreated={onCreated} />, { locale: 'en', path: '/en/admin/create' });
    const webhook = await screen.findByRole('radio', { name: /^Webhook/ });
    expect(screen.getByRole('button', { name: 'Create' }).hasAttribute('disabled')).toBe(true);
    fireEvent.click(webhook);
    const name = screen.getByLabelText('Name');
    expect((name as HTMLInputElement).value).toBe('Webhook');
    fireEvent.change(name, { target: { value: '  Форма на головній ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    await vi.waitFor(() => expect(onCreated).toHaveBeenCalledWith(created));
    expect(callsTo(fetch, 'POST /api/integrations')[0]?.body).toEqual({ type: 'webhook', name: 'Форма на головній' });
  });

  it('a Facebook integration is made from a lead form: the picker sends the user there, creating nothing', async () => {
    const fetch = routeFetch({
      'GET /api/legacy/api/admin/integration/settings': [...settings, makeSetting('facebook', 'source')],
      'GET /api/legacy/api/admin/integration/categories': [],
    });
    renderPage(<CreateIntegrationForm onCreated={() => {}} />, { locale: 'en', path: '/en/admin/create' });
    fireEvent.click(await screen.findByRole('radio', { name: /facebook/i }));
    const go = await screen.findByRole('link', { name: 'Choose a lead form' });
    expect(go.getAttribute('href')).toBe('/en/admin/integrations/fb');
    expect(screen.queryByRole('button', { name: 'Create' })).toBeNull();
    expect(callsTo(fetch, 'POST /api/integrations')).toHaveLength(0);
  });
});
