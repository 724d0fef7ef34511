// The `connect` widget with a state path of its own (kit/manifest-connect.ts): details shown before
// it is connected when the state says `detailsFirst` (an address to paste at the sender before its
// token exists), and the state read again when the integration's connection changes. A made-up
// card: the widget is generic.
import type { ConnectCard, ConnectionView } from '@leadrelay/connectors/manifest';
import type { Integration } from '@leadrelay/shared';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { callsTo, makeIntegration, routeFetch } from '../../test/integration-fixtures';
import { renderPage } from '../../test/render';
import { ConnectCardView } from './connect-card';

afterEach(() => vi.unstubAllGlobals());

const ID = '77777777-7777-4777-8777-777777777777';
const ADDRESS = `https://app.example.com/api/x/events/${ID}/secret`;
type State = { address: string | null; tokenSet: boolean };

const card: ConnectCard<string, string> = {
  widget: 'connect',
  title: 'Outgoing webhook',
  intro: 'Paste the address at the sender, then its token here.',
  state: {
    path: '/api/integrations/:id/watch',
    read: (answer): ConnectionView<string> => {
      const s = answer as State;
      return {
        connected: s.tokenSet,
        detailsFirst: true,
        details: s.address
          ? [{ label: 'Address', value: [{ text: s.address, copy: true }] }]
          : [{ label: 'State', value: [{ text: 'Connect first' }] }],
      };
    },
  },
  fields: [{ kind: 'secret', name: 'token', label: 'Token', required: true }],
  submit: { path: '/api/integrations/:id/watch/token', answersState: true },
  words: { submit: 'Save the token', done: 'Saved', change: 'Replace', cancel: 'Cancel' },
};

function Harness({ start }: { start: Integration }) {
  const [integration, setIntegration] = useState(start);
  return (
    <>
      <button type="button" onClick={() => setIntegration({ ...integration, isConnected: true })}>
        connect it
      </button>
      <ConnectCardView integration={integration} card={card} say={(key) => key} slug="x" />
    </>
  );
}

describe('connect card with its own state', () => {
  it('shows the address before the token; reads the state again once the integration connects', async () => {
    let state: State = { address: null, tokenSet: false };
    const mock = routeFetch({
      [`GET /api/integrations/${ID}/watch`]: () => state,
      [`POST /api/integrations/${ID}/watch/token`]: () => {
        state = { ...state, tokenSet: true };
        return state;
      },
    });
    renderPage(<Harness start={makeIntegration({ _id: ID, isConnected: false })} />, { locale: 'en' });
    expect(await screen.findByText('Connect first')).toBeTruthy();
    expect(screen.getByText(card.intro!)).toBeTruthy();

    // Connected elsewhere on the page: the card asks again and shows the address, with the form.
    state = { address: ADDRESS, tokenSet: false };
    await userEvent.click(screen.getByRole('button', { name: 'connect it' }));
    expect((await screen.findByTestId('copy-value')).textContent).toContain(ADDRESS);
    expect(callsTo(mock, `GET /api/integrations/${ID}/watch`)).toHaveLength(2);
    await userEvent.type(screen.getByLabelText('Token'), 'abc123');
    await userEvent.click(screen.getByRole('button', { name: 'Save the token' }));

    // The answer is the new state: connected, the address still shown, the form folded.
    await waitFor(() => expect(screen.getByRole('button', { name: 'Replace' })).toBeTruthy());
    expect(screen.getByTestId('copy-value').textContent).toContain(ADDRESS);
    expect(screen.queryByText(card.intro!)).toBeNull();
    expect(callsTo(mock, `POST /api/integrations/${ID}/watch/token`).map((c) => c.body)).toEqual([{ token: 'abc123' }]);
  });
});
