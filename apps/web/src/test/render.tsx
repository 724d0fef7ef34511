import type { Locale, User } from '@leadrelay/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen } from '@testing-library/react';
import type { ReactElement, ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { vi } from 'vitest';
import { AppTheme } from '../app/theme';
import { applyLocale } from '../lib/i18n';

/** The app's message, notification and modal provider, for a test that mounts it inside its own router. */
export { DeferredApp } from '../app/deferred-app';

export function makeUser(overrides: Partial<User> = {}): User {
  return {
    _id: 'u1',
    login: 'anna@example.com',
    role: 'client',
    active: true,
    expDate: null,
    credit: 0,
    planId: null,
    subscription: null,
    paymentInfo: null,
    name: 'Anna',
    phone: '',
    company: '',
    lang: 'uk',
    timeZone: 'Europe/Kyiv',
    emailConfirmed: true,
    createdAt: '2025-01-01T00:00:00.000Z',
    ...overrides,
  };
}

/** Renders inside a memory router, a fresh query client (optionally holding `me`) and the theme. */
export function renderPage(ui: ReactNode, opts: { path?: string; user?: User; locale?: Locale } = {}) {
  const locale = opts.locale ?? 'uk';
  applyLocale(locale);
  // localePath() reads the window location, as it does under the browser router.
  window.history.replaceState(null, '', opts.path ?? (locale === 'en' ? '/en' : '/'));
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  if (opts.user) client.setQueryData(['me'], opts.user);
  const router = createMemoryRouter([{ path: '*', element: ui }], { initialEntries: [opts.path ?? '/'] });
  return {
    client,
    router,
    ...render(
      <QueryClientProvider client={client}>
        <AppTheme locale={locale}>
          <RouterProvider router={router} />
        </AppTheme>
      </QueryClientProvider>,
    ),
  };
}

/** A fetch stub answering with JSON. */
export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}) {
  return new Response(body === undefined ? '' : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });
}

/** An unsigned JWT with the given payload (the web only reads it). */
export function fakeJwt(payload: Record<string, unknown>): string {
  const enc = (o: unknown) => btoa(JSON.stringify(o)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  return `${enc({ alg: 'HS256', typ: 'JWT' })}.${enc(payload)}.sig`;
}

/** Renders one route at `url` with a fresh query client; returns the router to read the location. */
export function renderRoute(pattern: string, element: ReactElement, url: string, locale: Locale = 'en') {
  applyLocale(locale);
  window.history.replaceState(null, '', url);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter(
    [
      { path: pattern, element },
      { path: '*', element: <div data-testid="elsewhere" /> },
    ],
    { initialEntries: [url] },
  );
  render(
    <QueryClientProvider client={client}>
      <AppTheme locale={locale}>
        <RouterProvider router={router} />
      </AppTheme>
    </QueryClientProvider>,
  );
  return { client, router };
}

/** Opens an antd Select by its label and picks an option by its title. */
export async function choose(label: string, option: string) {
  fireEvent.mouseDown(await screen.findByLabelText(label, {}, { timeout: 3000 }));
  const items = await screen.findAllByTitle(option);
  fireEvent.click(items.at(-1) as HTMLElement);
}

/**
 * `window.location` with some members replaced (jsdom's cannot be spied on: `assign` and the like
 * are unforgeable), every other member read from the real one at the time it is read: a copy made
 * with `{ ...window.location }` keeps the address of the moment it was made (a previous test's),
 * and the app, which reads its language from the address, then speaks that test's language.
 */
export function stubLocation(replaced: Partial<Record<keyof Location, unknown>>): void {
  const real = window.location;
  // Over an empty object: a proxy of the real one may not answer its unforgeable members otherwise.
  const live = new Proxy({} as Location, {
    get(_, key) {
      if (Object.hasOwn(replaced, key)) return replaced[key as keyof Location];
      const value: unknown = Reflect.get(real, key, real);
      return typeof value === 'function' ? value.bind(real) : value;
    },
  });
  vi.stubGlobal('location', live);
}
