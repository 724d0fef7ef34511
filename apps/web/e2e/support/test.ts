import { type BrowserContext, test as base, type Page } from '@playwright/test';

export { expect } from '@playwright/test';

/**
 * Playwright's `test`, with one browser context per worker instead of one per test, and a new tab
 * in it for each test.
 *
 * The context keeps its HTTP cache from test to test, so a test's page loads revalidate the app's
 * files instead of fetching them again, and no context is made and torn down per test: on the
 * screens specs about a twentieth less CPU in all, in the browser process, its network process and
 * the server (docs/testing.md). Between tests the context forgets what a new one would not have:
 * its tabs are closed (their session storage, listeners, routes, timers and sockets with them), and
 * its cookies, permissions and routes cleared, with the local storage and other site data of every
 * origin a tab opened.
 *
 * A test that sets context options of its own (`test.use({ locale })`) gets a context of its own,
 * as before. `E2E_FRESH_CONTEXT=1` gives every test its own (to tell a leak between tests from a
 * bug).
 */
type Fixtures = { context: BrowserContext; page: Page };
type WorkerFixtures = { workerContext: BrowserContext };

/**
 * Playwright's own default locale: a test that sets another has a context of its own. A context made
 * with `browser.newContext()` in a test takes the config's `use` options (baseURL, reducedMotion …)
 * from the runner; the worker's names its locale, lest the first test to make it lend it its own.
 */
const DEFAULT_LOCALE = 'en-US';

export const test = base.extend<Fixtures, WorkerFixtures>({
  workerContext: [
    async ({ browser }, use) => {
      const context = await browser.newContext({ locale: DEFAULT_LOCALE });
      await use(context);
      await context.close();
    },
    { scope: 'worker' },
  ],
  context: async ({ workerContext, browser, locale, baseURL }, use) => {
    if (locale !== DEFAULT_LOCALE || process.env.E2E_FRESH_CONTEXT) {
      const own = await browser.newContext();
      await use(own);
      await own.close();
      return;
    }
    const origins = new Set<string>([new URL(baseURL as string).origin]);
    const remember = (page: Page) =>
      page.on('framenavigated', (frame) => {
        if (frame.url().startsWith('http')) origins.add(new URL(frame.url()).origin);
      });
    workerContext.on('page', remember);
    await use(workerContext);
    workerContext.off('page', remember);
    await forget(workerContext, origins);
  },
  page: async ({ context }, use) => {
    await use(await context.newPage());
  },
});

/** Leaves `context` as a new one would be, but for its HTTP cache: no tab, no site data, no cookie. */
async function forget(context: BrowserContext, origins: Set<string>): Promise<void> {
  await context.unrouteAll({ behavior: 'wait' });
  // The browser is reached through a tab: the test's own, or a blank one if it closed it.
  const [tab] = context.pages();
  const cdp = await context.newCDPSession(tab ?? (await context.newPage()));
  for (const origin of origins) {
    await cdp.send('Storage.clearDataForOrigin', {
      origin,
      storageTypes: 'local_storage,indexeddb,cache_storage,service_workers,file_systems',
    });
  }
  await cdp.detach();
  // Closing a tab ends its session storage, its listeners, routes, timers and sockets with it.
  await Promise.all(context.pages().map((page) => page.close()));
  await context.clearCookies();
  await context.clearPermissions();
}
