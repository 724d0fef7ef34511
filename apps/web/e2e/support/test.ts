import { type BrowserContext, test as base, type Page } from '@playwright/test';
import { baseURL } from '../../playwright.config';

export { expect } from '@playwright/test';

/**
 * Playwright's `test`, with one browser tab per worker instead of a new browser context and tab per
 * test.
 *
 * A new tab in a new context starts a new renderer process, which parses and compiles the whole app
 * again on its first page load: most of the suite's CPU. Here a worker keeps its context and its tab
 * (the renderer and what it compiled), and between tests forgets what a new browser would not have:
 * the tab goes back to `about:blank` at the default size, its routes and listeners are removed, the
 * other tabs closed; the context's cookies, permissions and routes are cleared, and the local and
 * session storage and other site data of every origin a tab opened.
 *
 * A test that sets context options of its own (`test.use({ locale })`) gets a context of its own,
 * as before. `E2E_FRESH_CONTEXT=1` gives every test its own (to tell a leak between tests from a
 * bug).
 */
type Fixtures = { context: BrowserContext; page: Page };
type WorkerFixtures = { workerContext: BrowserContext };

/** What the config's `use` gives every context; a worker-scoped fixture cannot read test options. */
const CONTEXT_OPTIONS = { baseURL, reducedMotion: 'reduce' } as const;
/** Playwright's own defaults: a test that sets another locale has a context of its own. */
const DEFAULT_LOCALE = 'en-US';
const DEFAULT_VIEWPORT = { width: 1280, height: 720 };

export const test = base.extend<Fixtures, WorkerFixtures>({
  workerContext: [
    async ({ browser }, use) => {
      const context = await browser.newContext({ ...CONTEXT_OPTIONS, locale: DEFAULT_LOCALE });
      await use(context);
      await context.close();
    },
    { scope: 'worker' },
  ],
  context: async ({ workerContext, browser, locale }, use) => {
    if (locale !== DEFAULT_LOCALE || process.env.E2E_FRESH_CONTEXT) {
      const own = await browser.newContext({ ...CONTEXT_OPTIONS, locale });
      await use(own);
      await own.close();
      return;
    }
    const origins = new Set<string>([new URL(baseURL).origin]);
    const remember = (page: Page) =>
      page.on('framenavigated', (frame) => {
        if (frame.url().startsWith('http')) origins.add(new URL(frame.url()).origin);
      });
    for (const page of workerContext.pages()) remember(page);
    workerContext.on('page', remember);
    await use(workerContext);
    workerContext.off('page', remember);
    await forget(workerContext, origins);
  },
  page: async ({ context }, use) => {
    await use(context.pages()[0] ?? (await context.newPage()));
  },
});

/** Leaves `context` as a new one would be, but for its first tab, its HTTP cache and compiled code. */
async function forget(context: BrowserContext, origins: Set<string>): Promise<void> {
  const [tab, ...others] = context.pages();
  await Promise.all(others.map((other) => other.close()));
  const page = tab ?? (await context.newPage());
  page.removeAllListeners();
  await context.unrouteAll({ behavior: 'wait' });
  // Each origin's storage, read by a blank document of that origin (no page of the app loads).
  await page.route('**/*', (route) => route.fulfill({ contentType: 'text/html', body: '<html></html>' }));
  const cdp = await context.newCDPSession(page);
  for (const origin of [...origins].reverse()) {
    await page.goto(origin);
    await page.evaluate(() => {
      localStorage.clear();
      sessionStorage.clear();
    });
    await cdp.send('Storage.clearDataForOrigin', {
      origin,
      storageTypes: 'indexeddb,cache_storage,service_workers,file_systems',
    });
  }
  await cdp.detach();
  await page.unrouteAll({ behavior: 'wait' });
  await page.goto('about:blank');
  await page.setViewportSize(DEFAULT_VIEWPORT);
  await page.emulateMedia({ media: null, colorScheme: null, reducedMotion: 'reduce' });
  await context.clearCookies();
  await context.clearPermissions();
}
