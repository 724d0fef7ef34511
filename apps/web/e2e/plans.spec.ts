import { signInByApi, signUp } from './support/actions';
import { texts, uniqueLogin } from './support/locales';
import { OWNER } from './support/owner';
import { expect, test } from './support/test';
import { urlIs } from './support/url';

test('a new account opens its plan page from the header, compares the seeded plans annually and in hryvnias', async ({
  page,
}) => {
  const t = texts.uk;
  await signUp(page, 'uk', uniqueLogin('plans'), 'Secret123');
  await page.getByTitle(t.layout.header.changePlan).first().click();
  await expect(page).toHaveURL(urlIs('/admin/plan'));
  await expect(page.getByRole('heading', { name: t.plans.page.title, exact: true })).toBeVisible();
  await expect(page.getByTestId('plan-status')).toContainText(t.plans.status.demo);

  const start = page.getByRole('region', { name: 'Старт' });
  const business = page.getByRole('region', { name: 'Бізнес' });
  const pro = page.getByRole('region', { name: 'Про' });
  await expect(start).toContainText('$9.00');
  await expect(business).toContainText('$29.00');
  await expect(pro).toContainText('$79.00');
  await expect(pro).toContainText(t.plans.limits.leadsPerMonthUnlimited);

  await page.getByText(t.plans.period.annual, { exact: true }).click();
  await expect(business).toContainText('$290.00');
  await expect(business).toContainText('Економія $58.00');

  await page.getByText(t.plans.currency.UAH, { exact: true }).click();
  await expect(business).toContainText(/≈ \d+ грн/);
  // The demo account's usage is against the demo limits.
  await expect(page.getByText(t.plans.usage.demoTitle)).toBeVisible();
  await expect(page.getByTestId('usage-integrations')).toContainText('0 з 10');

  // The currency is remembered.
  await page.reload();
  await expect(page.getByRole('region', { name: 'Бізнес' })).toContainText(/≈ \d+ грн/);
});

test('the owner adds a plan, clients are offered it; switched off, it is offered no more', async ({
  page,
  browser,
}) => {
  const t = texts.en;
  const title = `Agency ${Date.now()}`;
  await signInByApi(page, 'en', OWNER.login, OWNER.password, '/admin/super/tariffs');
  await expect(page.getByRole('heading', { name: t.plans.tariffs.title, exact: true })).toBeVisible();
  await expect(page.getByRole('row', { name: /Бізнес/ })).toBeVisible();

  await page.getByRole('button', { name: t.plans.tariffs.create }).click();
  const dialog = page.getByRole('dialog', { name: t.plans.tariffs.createTitle });
  await dialog.getByLabel(t.plans.tariffs.fields.titleUk).fill(`Агенція ${title}`);
  await dialog.getByLabel(t.plans.tariffs.fields.titleEn).fill(title);
  await dialog.getByLabel(t.plans.tariffs.fields.monthlyAmount).fill('49');
  await dialog.getByLabel(t.plans.tariffs.fields.annualAmount).fill('490');
  await dialog.getByLabel(t.plans.tariffs.fields.leadsPerMonth).fill('10000');
  await dialog.getByLabel(t.plans.tariffs.fields.integrations).fill('20');
  await dialog.getByLabel(t.plans.tariffs.fields.destinationsPerSource).fill('8');
  await dialog.getByRole('button', { name: t.plans.tariffs.createOk }).click();
  await expect(page.getByText(t.plans.tariffs.messages.created)).toBeVisible();
  await expect(dialog).toBeHidden();
  const row = page.getByRole('row', { name: new RegExp(title) });
  await expect(row).toContainText('$49.00');

  // A client (another browser) is offered the new plan.
  const clientContext = await browser.newContext();
  const client = await clientContext.newPage();
  await signUp(client, 'en', uniqueLogin('plans-client'), 'Secret123', '/admin/plan');
  const offered = client.getByRole('region', { name: title });
  await expect(offered).toContainText('$49.00');
  await expect(offered).toContainText('10,000 leads a month');

  await row.getByRole('switch').click();
  await expect(page.getByText(t.plans.tariffs.messages.deactivated)).toBeVisible();
  await expect(row.getByRole('switch')).toHaveAttribute('aria-checked', 'false');

  await client.reload();
  await expect(client.getByRole('region', { name: 'Business' })).toBeVisible();
  await expect(client.getByRole('region', { name: title })).toHaveCount(0);
  await clientContext.close();

  // No account has it: it can be deleted.
  await row.getByRole('button', { name: `Delete “${title}”` }).click();
  await page.getByRole('button', { name: t.plans.tariffs.deleteOk, exact: true }).click();
  await expect(page.getByText(t.plans.tariffs.messages.deleted)).toBeVisible();
  await expect(page.getByRole('row', { name: new RegExp(title) })).toHaveCount(0);
});
