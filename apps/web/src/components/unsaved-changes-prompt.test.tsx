import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Button, Form, Input } from 'antd';
import { createMemoryRouter, Link, Outlet, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { applyLocale } from '../lib/i18n';
import { discardUnsavedChanges, useFormGuard } from '../lib/unsaved-changes';
import { DeferredApp } from '../test/render';
import { UnsavedChangesPrompt } from './unsaved-changes-prompt';

/** A settings form like the real ones: typing makes it dirty, saving (after the "server") clears it. */
function SettingsForm() {
  const guard = useFormGuard();
  return (
    <Form onValuesChange={guard.onValuesChange} onFinish={async () => guard.saved()}>
      <Form.Item name="url" label="Адреса">
        <Input />
      </Form.Item>
      <Button htmlType="submit">Зберегти</Button>
      <Link to="/elsewhere">Інша сторінка</Link>
      <Link to="/settings?tab=mapping">Інша вкладка</Link>
    </Form>
  );
}

function setup() {
  applyLocale('uk');
  const router = createMemoryRouter(
    [
      {
        element: (
          <>
            <Outlet />
            <UnsavedChangesPrompt />
          </>
        ),
        children: [
          { path: '/settings', element: <SettingsForm /> },
          { path: '/elsewhere', element: <p>Деінде</p> },
        ],
      },
    ],
    { initialEntries: ['/settings'] },
  );
  render(
    <DeferredApp>
      <RouterProvider router={router} />
    </DeferredApp>,
  );
  return router;
}

const unloadCancelled = () => {
  const event = new Event('beforeunload', { cancelable: true });
  window.dispatchEvent(event);
  return event.defaultPrevented;
};

afterEach(() => discardUnsavedChanges());

describe('unsaved changes guard', { timeout: 20_000 }, () => {
  it('lets you leave a form you did not change', async () => {
    const router = setup();
    await userEvent.click(screen.getByText('Інша сторінка'));
    expect(await screen.findByText('Деінде')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/elsewhere');
    expect(unloadCancelled()).toBe(false);
  });

  it('asks before leaving with typed changes; "stay" keeps the page and what was typed', async () => {
    const router = setup();
    await userEvent.type(screen.getByLabelText('Адреса'), 'https://example.com');
    expect(unloadCancelled()).toBe(true);
    await userEvent.click(screen.getByText('Інша сторінка'));
    expect(await screen.findByRole('dialog')).toBeTruthy();
    expect(screen.getAllByText('Зміни не збережено').length).toBeGreaterThan(0);
    await userEvent.click(screen.getByRole('button', { name: 'Залишитися' }));
    // The blocker is reset: the page stays, with what was typed.
    await waitFor(() => expect(router.state.navigation.state).toBe('idle'));
    expect(router.state.location.pathname).toBe('/settings');
    expect((screen.getByLabelText('Адреса') as HTMLInputElement).value).toBe('https://example.com');
  });

  it('"leave without saving" goes on and forgets the changes', async () => {
    const router = setup();
    await userEvent.type(screen.getByLabelText('Адреса'), 'x');
    await userEvent.click(screen.getByText('Інша сторінка'));
    await userEvent.click(await screen.findByRole('button', { name: 'Піти без збереження' }));
    expect(await screen.findByText('Деінде')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/elsewhere');
    expect(unloadCancelled()).toBe(false);
  });

  it('switching tabs of the same page is not leaving', async () => {
    const router = setup();
    await userEvent.type(screen.getByLabelText('Адреса'), 'x');
    await userEvent.click(screen.getByText('Інша вкладка'));
    await waitFor(() => expect(router.state.location.search).toBe('?tab=mapping'));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('after a save there is nothing to ask about', async () => {
    const router = setup();
    await userEvent.type(screen.getByLabelText('Адреса'), 'x');
    await userEvent.click(screen.getByRole('button', { name: 'Зберегти' }));
    await waitFor(() => expect(unloadCancelled()).toBe(false));
    await userEvent.click(screen.getByText('Інша сторінка'));
    expect(await screen.findByText('Деінде')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/elsewhere');
  });
});
