import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  AMO_ID,
  amoFields,
  amoIntegration,
  amoPipelines,
  amoUsers,
  connectorPages,
  listPath,
} from '../../test/crm-fixtures';
import { callsTo, makeSetting, routeFetch } from '../../test/integration-fixtures';
import { choose, jsonResponse, renderRoute, stubLocation } from '../../test/render';

afterEach(() => vi.unstubAllGlobals());

const PATTERN = '/en/admin/integrations/amocrm/:id';
const UK_PATTERN = '/admin/integrations/amocrm/:id';
// The generic page drawn from amoCRM's manifest, as /admin/integrations/:type/:id draws it.
const page = (await connectorPages('amocrm')).detail;
const connectPut = `PUT /api/admin/integration/${AMO_ID}/connect`;
const amoCalls = (fetch: ReturnType<typeof routeFetch>) =>
  fetch.mock.calls.filter(([input]) => String(input).includes('/amocrm/'));

function setup(integration = amoIntegration(), extra: Record<string, unknown> = {}) {
  return routeFetch({
    'GET /api/legacy/api/admin/integration/settings': [makeSetting('amocrm', 'destination')],
    [`GET /api/integrations/${AMO_ID}`]: integration,
    [listPath(AMO_ID, 'amocrm', 'pipelines')]: amoPipelines,
    [listPath(AMO_ID, 'amocrm', 'amoUsers')]: amoUsers,
    [listPath(AMO_ID, 'amocrm', 'customFields')]: amoFields,
    [`GET /api/legacy/api/amocrm/backup/${AMO_ID}`]: { data: [], total: 0 },
    [connectPut]: (_u: URL, init: RequestInit) => ({
      ok: true,
      status: 'ok',
      integration: { ...integration, settings: JSON.parse(init.body as string).settings },
    }),
    ...extra,
  });
}

describe('amoCRM integration page', { timeout: 30_000 }, () => {
  it('picks a pipeline, then one of its statuses, and saves them with the rest of the settings', async () => {
    const fetch = setup(
      amoIntegration({
        settings: { contactPolicy: 'attach', note: true, fields: [{ from: 'comment', entity: 'lead', fieldId: 301 }] },
      }),
    );
    renderRoute(PATTERN, page, `/en/admin/integrations/amocrm/${AMO_ID}?tab=pipeline`);
    expect(
      await screen.findByText('Where leads go', { selector: '.ant-card-head-title' }, { timeout: 5000 }),
    ).toBeTruthy();
    // The status picker depends on the pipeline; with none chosen, the page says where a deal goes.
    await vi.waitFor(() => expect(screen.getByLabelText('Pipeline')).toBeTruthy(), { timeout: 5000 });
    expect(screen.getByTestId('pipeline-unset').textContent).toBe(
      'Nothing chosen: the deal goes into the main pipeline “Продажі”, at its first stage.',
    );
    await choose('Pipeline', 'Опт');
    expect(screen.queryByTestId('pipeline-unset')).toBeNull();
    fireEvent.mouseDown(screen.getByLabelText('Status'));
    // Only the chosen pipeline's statuses are offered.
    expect(await screen.findByTitle('Прайс надіслано')).toBeTruthy();
    expect(screen.queryByTitle('Перший контакт')).toBeNull();
    fireEvent.click(screen.getByTitle('Прайс надіслано'));
    await choose('Responsible user', 'Іван Петренко');
    fireEvent.click(screen.getByLabelText('Always create a new contact'));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    await vi.waitFor(() => expect(callsTo(fetch, connectPut)).toHaveLength(1));
    expect(callsTo(fetch, connectPut)[0]?.body).toEqual({
      settings: {
        pipelineId: 200,
        statusId: 2002,
        contactPolicy: 'create',
        note: true,
        responsibleUserId: 7002,
        // The other card's part is kept: the server replaces the whole object.
        fields: [{ from: 'comment', entity: 'lead', fieldId: 301 }],
      },
    });
    expect(await screen.findByText('Saved successfully')).toBeTruthy();
  });

  it('with no pipeline chosen offers the main pipeline statuses, and picking one chooses that pipeline', async () => {
    const fetch = setup(amoIntegration({ settings: { contactPolicy: 'attach', note: true } }));
    renderRoute(PATTERN, page, `/en/admin/integrations/amocrm/${AMO_ID}?tab=pipeline`);
    await vi.waitFor(() => expect(screen.getByLabelText('Status')).toBeTruthy(), { timeout: 5000 });
    // Not greyed out beside a "choose a pipeline" note: the main pipeline's statuses are there.
    expect(screen.getByLabelText('Status').closest('.ant-select-disabled')).toBeNull();
    expect(screen.queryByText('Choose a pipeline to pick a status')).toBeNull();
    fireEvent.mouseDown(screen.getByLabelText('Status'));
    expect(await screen.findByTitle('Перший контакт')).toBeTruthy();
    expect(screen.queryByTitle('Прайс надіслано')).toBeNull();
    fireEvent.click(screen.getByTitle('Перший контакт'));
    // What is saved is what is shown: the pipeline is now chosen, the note about nothing chosen gone.
    await vi.waitFor(() => expect(screen.queryByTestId('pipeline-unset')).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(callsTo(fetch, connectPut)).toHaveLength(1));
    const { settings } = callsTo(fetch, connectPut)[0]!.body as { settings: Record<string, unknown> };
    expect(settings).toMatchObject({ pipelineId: 100, statusId: 1002 });
  });

  it('clears the status when another pipeline is chosen', async () => {
    const fetch = setup(
      amoIntegration({ settings: { pipelineId: 100, statusId: 1002, contactPolicy: 'attach', note: true } }),
    );
    renderRoute(PATTERN, page, `/en/admin/integrations/amocrm/${AMO_ID}?tab=pipeline`);
    expect(await screen.findByTitle('Перший контакт')).toBeTruthy();
    await choose('Pipeline', 'Опт');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(callsTo(fetch, connectPut)).toHaveLength(1));
    const { settings } = callsTo(fetch, connectPut)[0]!.body as { settings: Record<string, unknown> };
    expect(settings.pipelineId).toBe(200);
    expect(settings).not.toHaveProperty('statusId');
  });

  it('maps a lead field to a real amoCRM select field with our values → its options', async () => {
    const fetch = setup();
    renderRoute(PATTERN, page, `/en/admin/integrations/amocrm/${AMO_ID}?tab=fields`);
    fireEvent.click(await screen.findByRole('button', { name: /Add a field/ }));
    const row = screen.getByTestId('mapping-row');
    fireEvent.change(within(row).getByRole('combobox', { name: 'Lead field, row 1' }), {
      target: { value: 'utm.source' },
    });
    await choose('CRM field, row 1', 'Джерело');
    // A select field: our value → one of its options.
    fireEvent.click(await screen.findByRole('button', { name: /Add a value/ }));
    fireEvent.change(screen.getByRole('textbox', { name: 'Our value' }), { target: { value: 'fb' } });
    await choose('Option', 'Facebook');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    await vi.waitFor(() => expect(callsTo(fetch, connectPut)).toHaveLength(1));
    expect(callsTo(fetch, connectPut)[0]?.body).toEqual({
      settings: {
        contactPolicy: 'attach',
        note: true,
        fields: [{ from: 'utm.source', entity: 'lead', fieldId: 302, enums: { fb: 9001 } }],
      },
    });
  });

  it('refuses a mapping row without a known lead field before calling the server', async () => {
    const fetch = setup();
    renderRoute(PATTERN, page, `/en/admin/integrations/amocrm/${AMO_ID}?tab=fields`);
    fireEvent.click(await screen.findByRole('button', { name: /Add a field/ }));
    fireEvent.change(screen.getByRole('combobox', { name: 'Lead field, row 1' }), { target: { value: 'budget' } });
    await choose('CRM field, row 1', 'Посада');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Every row needs a lead field');
    expect(callsTo(fetch, connectPut)).toHaveLength(0);
  });

  it('not connected: shows "connect" and "connect first", asks amoCRM nothing, and goes to amoCRM on connect', async () => {
    const assign = vi.fn();
    stubLocation({ assign });
    const fetch = setup(amoIntegration({ isConnected: false, settings: {} }), {
      'POST /api/legacy/api/amocrm/connect': { url: 'https://www.amocrm.ru/oauth?client_id=abc&state=s1' },
    });
    renderRoute(PATTERN, page, `/en/admin/integrations/amocrm/${AMO_ID}?tab=pipeline`);
    expect(await screen.findByText('Connect the CRM first')).toBeTruthy();
    expect(amoCalls(fetch)).toHaveLength(0);

    fireEvent.click(screen.getByRole('button', { name: /Go to connection/ }));
    expect(screen.getAllByText('Not connected').length).toBeGreaterThan(0);
    fireEvent.click(screen.getByRole('button', { name: /Connect amoCRM/ }));
    await vi.waitFor(() => expect(assign).toHaveBeenCalledWith('https://www.amocrm.ru/oauth?client_id=abc&state=s1'));
    expect(callsTo(fetch, 'POST /api/legacy/api/amocrm/connect')[0]?.body).toEqual({
      integrationId: AMO_ID,
      locale: 'en',
    });
  });

  it('shows a translated error when starting the connection is refused', async () => {
    setup(amoIntegration({ isConnected: false }), {
      'POST /api/legacy/api/amocrm/connect': () =>
        jsonResponse(400, { statusCode: 400, code: 'OAUTH_NOT_CONFIGURED', message: 'OAUTH_NOT_CONFIGURED' }),
    });
    renderRoute(UK_PATTERN, page, `/admin/integrations/amocrm/${AMO_ID}`, 'uk');
    fireEvent.click(await screen.findByRole('button', { name: /Підключити amoCRM/ }));
    expect(await screen.findByText(/Це підключення ще не налаштоване на сервері/)).toBeTruthy();
  });

  it('after amoCRM sends the user back: a translated error toast, and the query is cleaned', async () => {
    setup();
    const { router } = renderRoute(
      PATTERN,
      page,
      `/en/admin/integrations/amocrm/${AMO_ID}?error=OAUTH_EXCHANGE_FAILED&tab=connection`,
    );
    expect(
      await screen.findByText('The service did not accept the authorisation. Start connecting again'),
    ).toBeTruthy();
    await vi.waitFor(() => expect(router.state.location.search).toBe('?tab=connection'));
  });

  it('after a successful return: a success toast and a clean URL', async () => {
    setup();
    const { router } = renderRoute(PATTERN, page, `/en/admin/integrations/amocrm/${AMO_ID}?connected=1`);
    expect(await screen.findByText('amoCRM is connected')).toBeTruthy();
    await vi.waitFor(() => expect(router.state.location.search).toBe(''));
  });

  it('makes a backup and lists it; a failing CRM call shows in its card with a retry, not as a page error', async () => {
    let backups: unknown[] = [];
    const fetch = setup(amoIntegration(), {
      [`GET /api/legacy/api/amocrm/backup/${AMO_ID}`]: () => ({ data: backups, total: backups.length }),
      'POST /api/legacy/api/amocrm/backup': () => {
        backups = [
          {
            _id: 'b1',
            integrationId: AMO_ID,
            createdAt: '2026-03-05T09:30:00.000Z',
            data: { settings: {}, pipelines: amoPipelines, users: amoUsers, fields: amoFields },
          },
        ];
        return backups[0];
      },
      [listPath(AMO_ID, 'amocrm', 'amoUsers')]: () =>
        jsonResponse(400, { statusCode: 400, code: 'CRM_REQUEST_FAILED', message: 'amo said no' }),
    });
    renderRoute(PATTERN, page, `/en/admin/integrations/amocrm/${AMO_ID}`);
    expect(await screen.findByText('No backups yet')).toBeTruthy();
    // Speed to lead: a status change in amoCRM is the lead's first reaction.
    expect(screen.getByTestId('crm-reaction-note').textContent).toContain('another stage in amoCRM');
    fireEvent.click(screen.getByRole('button', { name: /Make a backup/ }));
    expect(await screen.findByText('Pipelines: 2 · users: 2 · fields: 3')).toBeTruthy();
    expect(callsTo(fetch, 'POST /api/legacy/api/amocrm/backup')[0]?.body).toEqual({ integrationId: AMO_ID });

    fireEvent.click(screen.getByRole('tab', { name: 'Users' }));
    expect(await screen.findByText('Could not load data from the CRM')).toBeTruthy();
    expect(screen.getByText('The CRM refused the request')).toBeTruthy();
    expect(screen.getByRole('button', { name: /Try again/ })).toBeTruthy();
  });
});
