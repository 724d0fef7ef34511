import { fileURLToPath } from 'node:url';
import { expect, type Page, test } from '@playwright/test';
import { signUpAndConfirm } from './support/actions';
import { LANGS, texts, uniqueLogin } from './support/locales';

// The main screens fit a phone (375 px) and a desktop (1440 px) in both languages: nothing
// sticks out sideways. Each screen is also saved to test-results/screens/ for a person to look at.
const WIDTHS = [375, 1440];

async function expectFits(page: Page, name: string) {
  await page.waitForLoadState('networkidle');
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth, `${name} is wider than the screen`).toBeLessThanOrEqual(innerWidth);
  await page.screenshot({
    path: fileURLToPath(new URL(`../../../test-results/screens/${name}.png`, import.meta.url)),
    fullPage: true,
  });
}

for (const lang of LANGS) {
  const t = texts[lang];
  for (const width of WIDTHS) {
    test(`${lang} at ${width}px: sign-in, sign-up, dashboard, account, integrations and collections fit the screen`, async ({
      page,
    }) => {
      await page.setViewportSize({ width, height: width < 768 ? 812 : 900 });
      await page.goto(`${t.prefix}/signin`);
      await expect(page.getByRole('heading', { name: t.auth.signin.title })).toBeVisible();
      await expectFits(page, `signin-${lang}-${width}`);

      await page.goto(`${t.prefix}/signup`);
      await expect(page.getByRole('heading', { name: t.auth.signup.title })).toBeVisible();
      await expectFits(page, `signup-${lang}-${width}`);

      await signUpAndConfirm(page, lang, uniqueLogin(`screens-${lang}-${width}`), 'Secret123');
      await expect(page.getByText(t.dashboard.status.title)).toBeVisible();
      await expectFits(page, `admin-${lang}-${width}`);

      await page.goto(`${t.prefix}/admin/account`);
      await expect(page.locator('#name')).toBeVisible();
      await expectFits(page, `account-${lang}-${width}`);

      await page.goto(`${t.prefix}/admin/integrations`);
      await expect(page.getByRole('heading', { name: t.integrations.list.title, exact: true })).toBeVisible();
      await expectFits(page, `integrations-${lang}-${width}`);

      // The CRM list pages (amoCRM, Pipedrive) with their "Connect …" action.
      for (const crm of ['amocrm', 'pipedrive'] as const) {
        await page.goto(`${t.prefix}/admin/integrations/${crm}`);
        await expect(
          page.getByRole('heading', { name: crm === 'amocrm' ? 'amoCRM' : 'Pipedrive', exact: true }),
        ).toBeVisible();
        await expectFits(page, `${crm}-${lang}-${width}`);
      }

      await page.goto(`${t.prefix}/admin/collections`);
      await expect(page.getByRole('heading', { name: t.collections.title, exact: true })).toBeVisible();
      await expectFits(page, `collections-${lang}-${width}`);
    });
  }
}
