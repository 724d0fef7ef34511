import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeUser, renderPage } from '../../test/render';
import { SideMenu } from './side-menu';

const selectedLabel = () => document.querySelector('.ant-menu-item-selected')?.textContent ?? null;

describe('side menu', () => {
  it('marks the section of the page: an integration page and the catalogue pickers are under Integrations', async () => {
    for (const path of ['/en/admin/integrations/webhook/1', '/en/admin/create', '/en/admin/list']) {
      const { unmount } = renderPage(<SideMenu />, { user: makeUser({ role: 'owner' }), locale: 'en', path });
      await screen.findByText('Integrations');
      expect(selectedLabel(), path).toBe('Integrations');
      unmount();
    }
  });

  it('marks the dashboard only on /admin itself', async () => {
    renderPage(<SideMenu />, { user: makeUser(), locale: 'en', path: '/en/admin' });
    await screen.findByText('Dashboard');
    expect(selectedLabel()).toBe('Dashboard');
  });
});
