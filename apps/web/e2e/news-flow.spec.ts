import type { Page } from '@playwright/test';
import { createInDialog, signInByApi, signUp } from './support/actions';
import { texts, uniqueLogin } from './support/locales';
import { OWNER } from './support/owner';
import { expect, test } from './support/test';
import { UUID, urlIs, urlMatching } from './support/url';

const uk = texts.uk;

/** A 1200×600 picture drawn in the browser (a real PNG, as a person's file would be). */
async function pngFile(page: Page): Promise<Buffer> {
  const base64 = await page.evaluate(() => {
    const canvas = document.createElement('canvas');
    canvas.width = 1200;
    canvas.height = 600;
    const ctx = canvas.getContext('2d') as CanvasRenderingContext2D;
    const gradient = ctx.createLinearGradient(0, 0, 1200, 600);
    gradient.addColorStop(0, '#4f46e5');
    gradient.addColorStop(1, '#06b6d4');
    ctx.fillStyle = gradient;
    ctx.fillRect(0, 0, 1200, 600);
    ctx.fillStyle = '#fff';
    ctx.font = 'bold 72px sans-serif';
    ctx.fillText('LeadRelay × Uspacy', 120, 320);
    return canvas.toDataURL('image/png').split(',')[1] ?? '';
  });
  return Buffer.from(base64, 'base64');
}

test('an operator publishes a post with an image that a signed-out visitor reads in both languages', async ({
  page,
  browser,
  request,
}) => {
  const stamp = Date.now();
  const title = `Uspacy вже тут ${stamp}`;
  const titleEn = `Uspacy is here ${stamp}`;
  await signInByApi(page, 'uk', OWNER.login, OWNER.password);
  await page.goto('/news');
  await page.getByRole('button', { name: uk.news.create }).click();
  const dialog = page.getByRole('dialog', { name: uk.news.form.createTitle });
  // Nothing filled: every field, the image included, says what is missing.
  await dialog.getByRole('button', { name: uk.news.form.publish }).click();
  await expect(dialog.getByText(uk.errors.IMAGE_REQUIRED)).toBeVisible();
  // A text file named like a picture is refused by its bytes on the server.
  await dialog.locator('#title').fill(title);
  await dialog.locator('.lr-editor-content').first().click();
  await page.keyboard.type('Ліди з сайту тепер ідуть просто в Uspacy.');
  await page.keyboard.press('Enter');
  await page.keyboard.type('Другий абзац.');
  // The English version, beside the Ukrainian one.
  await dialog.locator('#titleEn').fill(titleEn);
  await dialog.locator('.lr-editor-content').nth(1).click();
  await page.keyboard.type('Website leads now go straight to Uspacy.');
  await dialog
    .locator('input[type=file]')
    .setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: Buffer.from('not a picture') });
  await dialog.getByRole('button', { name: uk.news.form.publish }).click();
  await expect(dialog.getByText(uk.errors.IMAGE_INVALID)).toBeVisible();
  await dialog.locator('.ant-upload-list-item').hover();
  await dialog
    .getByRole('button', { name: /delete|видалити/i })
    .first()
    .click();
  await dialog
    .locator('input[type=file]')
    .setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: await pngFile(page) });
  await dialog.getByRole('button', { name: uk.news.form.publish }).click();
  await expect(page).toHaveURL(urlMatching(`/news/${UUID}`));
  const postPath = new URL(page.url()).pathname;
  await expect(page.getByRole('heading', { name: title })).toBeVisible();

  // A visitor who never signed in.
  const visitor = await browser.newContext({ locale: 'uk-UA' });
  const reader = await visitor.newPage();
  await reader.goto('/news');
  await expect(reader.getByRole('heading', { name: uk.news.title })).toBeVisible();
  // The excerpt keeps the paragraphs apart.
  const card = reader.locator('.lr-news-card').filter({ hasText: title });
  await expect(card.locator('.lr-news-excerpt')).toHaveText('Ліди з сайту тепер ідуть просто в Uspacy.\nДругий абзац.');
  await reader.getByRole('link', { name: title }).click();
  await expect(reader).toHaveURL(urlIs(postPath));
  await expect(reader.getByRole('heading', { name: title })).toBeVisible();
  await expect(reader.getByText('Ліди з сайту тепер ідуть просто в Uspacy.')).toBeVisible();
  await expect(reader).toHaveTitle(`${title} — LeadRelay`);
  const image = reader.locator('img.lr-post-image');
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1200);
  await expect(reader.getByText('1 перегляд')).toBeVisible();
  // No staff controls for a visitor.
  await expect(reader.getByRole('button', { name: uk.news.edit })).toHaveCount(0);
  // The same visitor again the same day is not a second view.
  await reader.reload();
  await expect(reader.getByText('1 перегляд')).toBeVisible();
  // In English: the English version.
  await reader.goto(`/en${postPath}`);
  await expect(reader.getByRole('heading', { name: titleEn })).toBeVisible();
  await expect(reader.getByText('Website leads now go straight to Uspacy.')).toBeVisible();
  await expect(reader.getByText('Ліди з сайту')).toHaveCount(0);
  await expect(reader.getByTestId('post-only-uk')).toHaveCount(0);
  await expect(reader.getByText(/\b1 view\b/)).toBeVisible();
  await expect(reader.getByRole('link', { name: texts.en.news.back })).toBeVisible();
  await visitor.close();

  // Link previews: the served HTML carries the post's Open Graph tags (crawlers run no JavaScript).
  const html = await (await request.get(postPath)).text();
  expect(html).toContain(`<meta property="og:title" content="${title}" />`);
  expect(html).toMatch(/<meta property="og:image" content="http:\/\/127\.0\.0\.1:\d+\/api\/legacy\/api\/post\/image\//);
});

test('the operator orders a type’s modules by drag and drop, and the order stays', async ({ page }) => {
  const c = uk.catalogue;
  await signInByApi(page, 'uk', OWNER.login, OWNER.password, '/admin/super/integrations');
  await expect(page.getByRole('heading', { name: c.types.title })).toBeVisible();
  await expect(page.getByRole('cell', { name: uk.integrations.catalogue.names.webhook, exact: true })).toBeVisible();
  await page.getByRole('tab', { name: texts.uk.layout.super.modules }).click();
  await expect(page).toHaveURL(urlIs('/admin/super/integrations/modules'));
  await page.getByRole('combobox', { name: c.modules.type }).click();
  // The list is virtual (only what fits is drawn): search for the type first.
  await page.keyboard.type('http');
  await page
    .locator('.ant-select-dropdown:visible .ant-select-item-option')
    .filter({ hasText: texts.uk.http.catalogue.name })
    .click();
  for (const name of ['Підключення', 'Поля', 'Фільтри']) {
    await page.getByRole('button', { name: c.modules.create }).click();
    const dialog = page.getByRole('dialog', { name: c.modules.create });
    await dialog.getByLabel(c.modules.name).fill(name);
    await dialog.getByRole('button', { name: c.save }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByTestId('module-row').filter({ hasText: name })).toBeVisible();
  }
  const names = () => page.getByTestId('module-row').locator('.lr-module-name').allInnerTexts();
  expect(await names()).toEqual(['Підключення', 'Поля', 'Фільтри']);
  // "Фільтри" goes first: dragged by its handle above the first row.
  const handle = page.getByRole('button', { name: c.modules.drag.replace('{{name}}', 'Фільтри') });
  const from = await handle.boundingBox();
  const to = await page.getByTestId('module-row').first().boundingBox();
  if (!from || !to) throw new Error('rows are not on the screen');
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2 - 10, { steps: 3 });
  await page.mouse.move(from.x + from.width / 2, to.y + 4, { steps: 12 });
  await page.mouse.up();
  await expect(page.getByText(c.modules.sorted)).toBeVisible();
  expect(await names()).toEqual(['Фільтри', 'Підключення', 'Поля']);
  await page.reload();
  await expect(page.getByTestId('module-row')).toHaveCount(3);
  expect(await names()).toEqual(['Фільтри', 'Підключення', 'Поля']);
});

test.describe('support chat', () => {
  test.use({ locale: 'uk-UA' });

  test('is absent when the operator configured none', async ({ page }) => {
    await page.goto('/signin');
    await page.mouse.click(10, 10);
    await page.keyboard.press('Tab');
    await page.waitForLoadState('networkidle');
    await expect(page.locator('script#lr-support-chat')).toHaveCount(0);
  });

  test('loads the configured script at the first interaction, in the visitor’s language', async ({ page, baseURL }) => {
    const scriptUrl = `${baseURL}/__fake-support-chat.js`;
    let fetched = 0;
    // The server's settings as an operator would set them (SUPPORT_CHAT_*), and a local fake chat.
    await page.route('**/api/support-chat', (route) =>
      route.fulfill({ json: { scriptUrl, organization: 'org-e2e', loadImmediately: false } }),
    );
    await page.route(scriptUrl, (route) => {
      fetched++;
      return route.fulfill({
        contentType: 'text/javascript',
        body: `const s = window.supportChatSettings; const d = document.createElement('div'); d.id = 'fake-chat'; d.textContent = 'chat ' + s.organization + ' ' + s.lang; document.body.appendChild(d);`,
      });
    });
    await page.goto('/signin');
    await page.waitForLoadState('networkidle');
    expect(fetched).toBe(0);
    await expect(page.locator('#fake-chat')).toHaveCount(0);
    await page.locator('#login').click();
    await expect(page.locator('#fake-chat')).toHaveText('chat org-e2e uk');
    expect(fetched).toBe(1);
  });

  test('loads at once with loadImmediately, and follows the lang cookie', async ({ page, baseURL, context }) => {
    const scriptUrl = `${baseURL}/__fake-support-chat.js`;
    await context.addCookies([{ name: 'lang', value: 'en', url: baseURL as string }]);
    await page.route('**/api/support-chat', (route) =>
      route.fulfill({ json: { scriptUrl, organization: 'org-now', loadImmediately: true } }),
    );
    await page.route(scriptUrl, (route) =>
      route.fulfill({
        contentType: 'text/javascript',
        body: `const d = document.createElement('div'); d.id = 'fake-chat'; d.textContent = window.supportChatSettings.lang; document.body.appendChild(d);`,
      }),
    );
    await page.goto('/news');
    await expect(page.locator('#fake-chat')).toHaveText('en');
  });
});

test('/test sends a test lead to a webhook and says what became of it', async ({ page, browser }) => {
  test.setTimeout(180_000);
  await signUp(page, 'en', uniqueLogin('testpage'), 'Secret123', '/admin/integrations');
  await page.getByRole('button', { name: texts.en.integrations.list.new }).first().click();
  await createInDialog(page, 'Webhook', 'Landing form');
  await expect(page).toHaveURL(urlMatching(`/en/admin/integrations/webhook/${UUID}`));
  const hookUrl = await page.getByRole('textbox', { name: texts.en.integrations.webhook.url }).inputValue();

  const visitor = await browser.newContext();
  const web = await visitor.newPage();
  const tl = texts.uk.testLead;
  await web.goto('/test');
  await expect(web.getByRole('heading', { name: tl.title })).toBeVisible();
  await web.getByLabel(tl.webhook).fill('https://elsewhere.example/form');
  await web.getByRole('button', { name: tl.send }).click();
  await expect(web.getByText(tl.webhookInvalid)).toBeVisible();
  await web.getByLabel(tl.webhook).fill(hookUrl);
  await web.getByRole('button', { name: tl.send }).click();
  await expect(web.getByRole('status')).toContainText(tl.sent.replace('{{status}}', ''));
  await visitor.close();

  // The lead is in the account's lead log, and the team can leave a note on it.
  await page.getByRole('tab', { name: texts.en.integrations.tabs.leads }).click();
  await page.getByRole('row').filter({ hasText: 'Олена Коваленко' }).getByText('Олена Коваленко').click();
  const drawer = page.getByRole('dialog');
  await drawer.getByRole('textbox', { name: texts.en.hooks.notes.placeholder }).fill('Called back, sending a quote');
  await drawer.getByRole('button', { name: texts.en.hooks.notes.add }).click();
  await expect(drawer.getByTestId('hook-note')).toContainText('Called back, sending a quote');
});
