import type { ConversionSettings } from '@leadrelay/shared';
import { configure, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadManifest } from '../../lib/connectors/manifests';
import { AMO_ID, amoIntegration, amoPipelines, listPath } from '../../test/crm-fixtures';
import { callsTo, makeIntegration, routeFetch } from '../../test/integration-fixtures';
import { choose, DeferredApp, jsonResponse, renderPage } from '../../test/render';
import { ConversionsCard } from './conversions-card';

afterEach(() => vi.unstubAllGlobals());
// The source's own declaration, as the integration page passes it.
const declared = (await loadManifest('facebook'))?.conversions;
if (!declared) throw new Error('the facebook manifest declares no conversions');
const conversions = declared;
configure({ asyncUtilTimeout: 5000 });

const SRC = '77777777-7777-4777-8777-777777777777';
const USPACY = '88888888-8888-4888-8888-888888888888';
const capi = `/api/integrations/${SRC}/capi`;
const source = makeIntegration({
  _id: SRC,
  name: 'Консультація',
  type: 'facebook',
  kind: 'source',
  destination: [{ _id: AMO_ID, name: 'Відділ продажу', type: 'amocrm' }],
});
const off: ConversionSettings = { enabled: false, datasetId: null, events: {}, heldReason: null };
const datasets = {
  datasets: [
    { id: '111', name: 'Сайт клініки', adAccounts: [{ id: 'act_1', name: 'Клініка' }] },
    { id: '222', name: 'Лендинг', adAccounts: [{ id: 'act_1', name: 'Клініка' }] },
  ],
};

function setup(settings: ConversionSettings = off, extra: Record<string, unknown> = {}) {
  return routeFetch({
    [`GET ${capi}`]: settings,
    [`GET ${capi}/datasets`]: datasets,
    [`PUT ${capi}`]: (_u: URL, init: RequestInit) => ({ ...JSON.parse(init.body as string), heldReason: null }),
    // A CRM that does not tell of stage changes is not offered.
    'GET /api/integrations': {
      data: [
        source,
        amoIntegration(),
        makeIntegration({ _id: USPACY, name: 'Юспейсі', type: 'uspacy', kind: 'destination', isConnected: true }),
      ],
      total: 3,
    },
    [listPath(AMO_ID, 'amocrm', 'pipelines')]: amoPipelines,
    ...extra,
  });
}

const render = (locale: 'en' | 'uk' = 'en') =>
  renderPage(
    <DeferredApp>
      <ConversionsCard integration={source} slug="facebook" conversions={conversions} />
    </DeferredApp>,
    { locale, path: locale === 'en' ? '/en/admin' : '/admin' },
  );
const saveButton = () => screen.getByRole('button', { name: /Save/ });

describe('ConversionsCard', { timeout: 30_000 }, () => {
  it('switches sending on with a dataset chosen from the ad accounts, and nothing else to set', async () => {
    const fetch = setup();
    render();
    expect(await screen.findByText('Conversions to Meta')).toBeTruthy();
    expect((await screen.findByTestId('capi-state')).textContent).toBe('Off');
    // Nothing is asked of Meta until sending is wanted.
    expect(callsTo(fetch, `GET ${capi}/datasets`)).toHaveLength(0);

    fireEvent.click(screen.getByRole('switch', { name: 'Send CRM stages to Meta' }));
    // On without a dataset: said at once, and saving is impossible.
    expect(await screen.findByText('Choose a dataset (pixel) to switch sending stages on')).toBeTruthy();
    expect(saveButton()).toHaveProperty('disabled', true);

    await choose('Dataset (pixel)', 'Лендинг');
    // The datasets are grouped under their ad account.
    expect(screen.getByTitle('Клініка')).toBeTruthy();
    expect(saveButton()).toHaveProperty('disabled', false);
    fireEvent.click(saveButton());
    await vi.waitFor(() => expect(callsTo(fetch, `PUT ${capi}`)).toHaveLength(1));
    expect(callsTo(fetch, `PUT ${capi}`)[0]?.body).toEqual({ enabled: true, datasetId: '222', events: {} });
    await vi.waitFor(() => expect(screen.getByTestId('capi-state').textContent).toBe('On'));
  });

  it('says why the datasets cannot be read, and where to connect again, in Ukrainian', async () => {
    setup(
      { ...off, enabled: true, datasetId: '111' },
      {
        [`GET ${capi}/datasets`]: jsonResponse(403, {
          statusCode: 403,
          code: 'FACEBOOK_CAPI_PERMISSION',
          message: 'Meta refused ads_management',
        }),
      },
    );
    render('uk');
    const alert = await screen.findByTestId('capi-datasets-error');
    expect(alert.textContent).toContain(
      'Підключений акаунт Facebook не має дозволу на керування рекламою: підключіть його знову й дозвольте цей доступ',
    );
    expect(alert.textContent).toContain('Підключіть акаунт Meta знову на сторінці підключень');
    expect(within(alert).getByRole('link', { name: 'Підключити знову' }).getAttribute('href')).toBe(
      '/admin/integrations/facebook',
    );
    expect(alert.textContent).not.toMatch(/ads_management/);
  });

  it('shows a hold with its reason and what to do', async () => {
    setup({ ...off, enabled: true, datasetId: '111', heldReason: 'FACEBOOK_DATASET_NOT_FOUND' });
    render();
    const held = await screen.findByTestId('capi-held');
    expect(held.textContent).toContain('Sending to Meta is on hold');
    expect(held.textContent).toContain('The Facebook dataset (pixel) is gone');
    expect(held.textContent).toContain('save these settings again');
  });

  it('keeps the defaults unless a name is changed: the initial event, and a pipeline stage renamed or not sent', async () => {
    const fetch = setup({ ...off, enabled: true, datasetId: '111' });
    render();
    fireEvent.click(await screen.findByText('Event names'));
    const initial = await screen.findByLabelText('Event name for the stage “Lead delivered”');
    expect(initial.getAttribute('placeholder')).toBe('Lead');
    // The source's CRM, its main pipeline's stages, each named after itself by default.
    const stages = await screen.findAllByTestId('capi-stage');
    expect(stages.map((s) => within(s).getByRole('textbox').getAttribute('placeholder'))).toEqual([
      'Нерозібране',
      'Перший контакт',
    ]);
    fireEvent.mouseDown(screen.getByLabelText('CRM'));
    expect((await screen.findAllByTitle('Відділ продажу')).length).toBeGreaterThan(0);
    expect(screen.queryByTitle('Юспейсі')).toBeNull();
    await choose('Pipeline', 'Опт');
    await vi.waitFor(() => expect(screen.getByLabelText('Event name for the stage “Прайс надіслано”')).toBeTruthy());
    fireEvent.change(screen.getByLabelText('Event name for the stage “Прайс надіслано”'), {
      target: { value: 'Purchase' },
    });
    const first = screen.getAllByTestId('capi-stage')[0] as HTMLElement;
    fireEvent.click(within(first).getByRole('checkbox', { name: "Don't send" }));
    expect(within(first).getByRole('textbox')).toHaveProperty('disabled', true);
    fireEvent.change(initial, { target: { value: 'LeadIn' } });

    fireEvent.click(saveButton());
    await vi.waitFor(() => expect(callsTo(fetch, `PUT ${capi}`)).toHaveLength(1));
    expect(callsTo(fetch, `PUT ${capi}`)[0]?.body).toEqual({
      enabled: true,
      datasetId: '111',
      events: { '*': { lead: 'LeadIn' }, '200': { '2001': null, '2002': 'Purchase' } },
    });
    // A pipeline with names of its own can go back to the defaults.
    expect(await screen.findByRole('button', { name: 'Reset “Опт”' })).toBeTruthy();
  });

  it('refuses a name Meta would not take before sending, in the words of its error key', async () => {
    const fetch = setup({ ...off, enabled: true, datasetId: '111' });
    render();
    fireEvent.click(await screen.findByText('Event names'));
    fireEvent.change(await screen.findByLabelText('Event name for the stage “Lead delivered”'), {
      target: { value: 'Lead\u0007' },
    });
    fireEvent.click(saveButton());
    expect(await screen.findByText(/The text contains characters that cannot be stored/)).toBeTruthy();
    expect(callsTo(fetch, `PUT ${capi}`)).toHaveLength(0);
  });
});
