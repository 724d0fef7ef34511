import { fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { connectorPages, PD_ID } from '../../test/crm-fixtures';
import { callsTo, routeFetch } from '../../test/integration-fixtures';
import { jsonResponse, renderRoute } from '../../test/render';

// Pipedrive's manifest says its consent comes back to /admin/integrations/pipedrive/connect: the
// generic /admin/integrations/:type/:id route draws the return there.
const page = (await connectorPages('pipedrive')).detail;

afterEach(() => vi.unstubAllGlobals());

const connect = 'POST /api/legacy/api/pipedrive/connect';

describe('Pipedrive OAuth return page', { timeout: 20_000 }, () => {
  it('exchanges code and state once and opens the connected integration', async () => {
    const fetch = routeFetch({ [connect]: { integrationId: PD_ID, type: 'pipedrive' } });
    const { router } = renderRoute(
      '/en/admin/integrations/pipedrive/:id',
      page,
      '/en/admin/integrations/pipedrive/connect?code=c0de-123&state=st.ate',
    );
    await vi.waitFor(() => expect(router.state.location.pathname).toBe(`/en/admin/integrations/pipedrive/${PD_ID}`));
    expect(callsTo(fetch, connect).map((c) => c.body)).toEqual([{ code: 'c0de-123', state: 'st.ate' }]);
    expect(await screen.findByText('Pipedrive is connected')).toBeTruthy();
  });

  it('shows the translated reason and a way back when the server refuses the state', async () => {
    routeFetch({
      [connect]: () =>
        jsonResponse(400, { statusCode: 400, code: 'OAUTH_STATE_INVALID', message: 'OAUTH_STATE_INVALID' }),
    });
    const { router } = renderRoute(
      '/admin/integrations/pipedrive/:id',
      page,
      '/admin/integrations/pipedrive/connect?code=abc&state=old',
      'uk',
    );
    expect(await screen.findByText('Pipedrive не підключено')).toBeTruthy();
    expect(screen.getByText(/Посилання для підключення застаріло/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /Усі підключення Pipedrive/ }));
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/admin/integrations/pipedrive'));
  });

  it('without a code asks the server nothing and says what to do', async () => {
    const fetch = routeFetch({});
    renderRoute(
      '/en/admin/integrations/pipedrive/:id',
      page,
      '/en/admin/integrations/pipedrive/connect?error=access_denied',
    );
    expect(await screen.findByText('Access was not allowed in Pipedrive. Start connecting again.')).toBeTruthy();
    expect(fetch).not.toHaveBeenCalled();
  });
});
