import { cleanup } from '@testing-library/react';
import Cookies from 'js-cookie';
import { afterEach } from 'vitest';
import { addShippedStrings } from '../lib/i18n';
import enDashboard from '../locales/en-dashboard';
import enRest from '../locales/en-rest';
import enStart from '../locales/en-start';
import ukDashboard from '../locales/uk-dashboard';
import ukRest from '../locales/uk-rest';
import ukStart from '../locales/uk-start';

// Unit tests have every string of both languages at once (the app loads chunks on demand).
for (const [language, bundle] of [
  ['uk', { ...ukStart, ...ukDashboard, ...ukRest }],
  ['en', { ...enStart, ...enDashboard, ...enRest }],
] as const) {
  addShippedStrings(language, bundle);
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
