import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { setToken } from '../../lib/auth';
import { fakeJwt, makeUser, renderPage } from '../../test/render';
import { MenuDrawer } from './menu-drawer';

// A phone's header has no room for the language switch: the menu drawer carries it.
describe('the phone menu', () => {
  it('offers the language switch under the menu', async () => {
    setToken(fakeJwt({ sub: 'u1', login: 'a@b.co', role: 'client', exp: Date.now() / 1000 + 600 }));
    renderPage(<MenuDrawer open onClose={() => {}} />, { user: makeUser(), locale: 'uk', path: '/admin' });
    const drawer = await screen.findByRole('dialog');
    expect(drawer.querySelector('.lr-drawer-language [role="radiogroup"]')).not.toBeNull();
  });
});
