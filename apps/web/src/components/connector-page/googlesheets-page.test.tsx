import { fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadManifest } from '../../lib/connectors/manifests';
import { callsTo, makeIntegration, makeSetting, routeFetch } from '../../test/integration-fixtures';
import { choose, renderRoute } from '../../test/render';
import { ConnectorDetailPage } from './connector-pages';

afterEach(() => vi.unstubAllGlobals());

const ID = '99999999-9999-4999-8999-999999999999';
const LEADS = '1LeadsSpreadsheet2026xxxxxxxxxxxxxxxxxxxxx';
const manifest = await loadManifest('googlesheets');
if (!manifest?.page) throw new Error('the googlesheets manifest describes no page');
const page = <ConnectorDetailPage manifest={{ ...manifest, page: manifest.page }} />;
const connectPut = `PUT /api/admin/integration/${ID}/connect`;
const sheetsGet = `GET /api/integrations/${ID}/googlesheets/lists/sheets`;

// A list whose loader reads a saved setting (dependsOn: the sheets of the saved spreadsheet) is asked
// again once that setting is saved; other lists are not.
describe('Google Sheets integration page', { timeout: 30_000 }, () => {
  it('saving the spreadsheet asks for its sheets again, and the sheet chosen is saved with the rest', async () => {
    let integration = makeIntegration({
      _id: ID,
      name: 'Leads',
      type: 'googlesheets',
      kind: 'destination',
      isConnected: true,
      settings: { language: 'uk' },
    });
    const fetch = routeFetch({
      'GET /api/legacy/api/admin/integration/settings': [makeSetting('googlesheets', 'destination')],
      [`GET /api/integrations/${ID}`]: () => integration,
      [`GET /api/integrations/${ID}/googlesheets/lists/spreadsheets`]: [
        { id: LEADS, name: 'Ліди 2026' },
        { id: '1SalesReportSpreadsheetxxxxxxxxxxxxxxxxxxx', name: 'Sales report' },
      ],
      [sheetsGet]: () =>
        (integration.settings as { spreadsheetId?: string }).spreadsheetId
          ? [
              { sheetId: 0, title: 'Аркуш1' },
              { sheetId: 7, title: 'Архів' },
            ]
          : [],
      [connectPut]: (_u: URL, init: RequestInit) => {
        integration = { ...integration, settings: JSON.parse(init.body as string).settings };
        return { ok: true, status: 'ok', integration };
      },
    });
    renderRoute(
      '/en/admin/integrations/googlesheets/:id',
      page,
      `/en/admin/integrations/googlesheets/${ID}?tab=sheet`,
      'en',
    );
    await vi.waitFor(() => expect(screen.getByLabelText('Spreadsheet from your Google Drive')).toBeTruthy(), {
      timeout: 5000,
    });
    expect(callsTo(fetch, sheetsGet)).toHaveLength(1);
    await choose('Spreadsheet from your Google Drive', 'Ліди 2026');
    fireEvent.click(screen.getByRole('button', { name: 'Save spreadsheet' }));
    await vi.waitFor(() => expect(callsTo(fetch, connectPut)).toHaveLength(1));
    expect(callsTo(fetch, connectPut)[0]?.body).toEqual({ settings: { language: 'uk', spreadsheetId: LEADS } });
    expect(await screen.findByText('Spreadsheet saved')).toBeTruthy();

    // The spreadsheet changed: its sheets are read again (the spreadsheets list is not).
    await vi.waitFor(() => expect(callsTo(fetch, sheetsGet)).toHaveLength(2));
    expect(callsTo(fetch, `GET /api/integrations/${ID}/googlesheets/lists/spreadsheets`)).toHaveLength(1);
    await choose('Sheet', 'Архів');
    fireEvent.click(screen.getByRole('button', { name: 'Save sheet and columns' }));
    await vi.waitFor(() => expect(callsTo(fetch, connectPut)).toHaveLength(2));
    expect(callsTo(fetch, connectPut)[1]?.body).toEqual({
      settings: { language: 'uk', spreadsheetId: LEADS, sheetId: 7 },
    });
  });
});
