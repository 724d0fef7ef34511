import { cleanup } from '@testing-library/react';
import dayjs from 'dayjs';
import Cookies from 'js-cookie';
import { afterAll, afterEach, vi } from 'vitest';
import { addShippedStrings } from '../lib/i18n';

type Shipped = Record<'uk' | 'en', Record<string, object>[]>;

async function readShipped(): Promise<Shipped> {
  const [ukStart, ukDashboard, ukRest, enStart, enDashboard, enRest] = await Promise.all([
    import('../locales/uk-start'),
    import('../locales/uk-dashboard'),
    import('../locales/uk-rest'),
    import('../locales/en-start'),
    import('../locales/en-dashboard'),
    import('../locales/en-rest'),
  ]);
  // Each chunk in turn, as the app adds them: `connectors` is in two (the codes' words, the rest).
  return {
    uk: [ukStart.default, ukDashboard.default, ukRest.default],
    en: [enStart.default, enDashboard.default, enRest.default],
  };
}

// Unit tests have every string of both languages at once (the app loads chunks on demand). They are
// read once per worker (its test files share it) and given to each file's fresh i18next store,
// which copies them.
const worker = globalThis as typeof globalThis & { shippedStrings?: Promise<Shipped> };
worker.shippedStrings ??= readShipped();
for (const [language, bundles] of Object.entries(await worker.shippedStrings)) {
  for (const bundle of bundles) addShippedStrings(language, bundle);
}

// antd reads these; jsdom lacks them.
if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }) as MediaQueryList;
}
if (!window.ResizeObserver) {
  window.ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
}

afterEach(() => {
  cleanup();
  localStorage.clear();
  sessionStorage.clear();
  for (const name of Object.keys(Cookies.get())) Cookies.remove(name, { path: '/' });
});

// The test files of a worker share it (isolate: false, vitest.config.ts): after each file, what the
// file changed goes back to how a fresh worker starts, so no file sees another's leftovers.
afterAll(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
  window.history.replaceState(null, '', '/');
  document.querySelector('title')?.remove();
  for (const { name } of [...document.documentElement.attributes]) document.documentElement.removeAttribute(name);
  for (const { name } of [...document.body.attributes]) document.body.removeAttribute(name);
  document.body.replaceChildren();
  dayjs.locale('en');
  // The app's modules (their caches, the signed-in token, the realtime client, i18next's store)
  // start afresh; only node_modules are shared.
  vi.resetModules();
});
