import { type HttpEmulator, startHttpEmulator } from '@leadrelay/connectors/http/emulator';
import type { Page } from '@playwright/test';
import enWords from '../../../packages/connectors/src/googleads/words/en.json' with { type: 'json' };
import ukWords from '../../../packages/connectors/src/googleads/words/uk.json' with { type: 'json' };
import { baseURL } from '../playwright.config';
import { createInDialog, signUp } from './support/actions';
import { texts, uniqueLogin } from './support/locales';
import { expectFits, forPicture } from './support/screens';
import { expect, test } from './support/test';
import { UUID, urlMatching } from './support/url';

// Issue 32's check for Google Ads lead forms, against the Google Ads emulator the e2e server runs
// (EMULATORS=true): on the type's own screen make the webhook address and key, read them as a person
// would copy them, have "Google" send a lead and its "Send test data", see both in the lead log (the
// test one marked) and the real one delivered to an HTTP destination; a wrong key is refused, and a
// new key makes the old one stop working.
const t = texts.en;
const i = t.integrations;
const g = enWords;

let google: { url: string };
let receiver: HttpEmulator;
test.beforeAll(async ({ request }) => {
  google = (await (await request.get(`${baseURL}/api/emulators`)).json()).googleads;
  receiver = await startHttpEmulator({ host: '127.0.0.1' });
});
test.afterAll(async () => {
  await receiver?.close();
});

/** "Google" sends a lead to the address with the key: what our receiver answered each time. */
async function send(body: Record<string, unknown>): Promise<number[]> {
  const res = await fetch(`${google.url}/__emulator/leads`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as { answers: { status: number }[] }).answers.map((a) => a.status);
}

/** Through the API, as the page's user: an http destination to the receiver, then the source sends to it. */
async function sendTo(page: Page, sourceId: string, url: string): Promise<void> {
  await page.evaluate(
    async ({ sourceId, url }) => {
      const headers = {
        authorization: `Bearer ${localStorage.getItem('sessionToken')}`,
        'content-type': 'application/json',
      };
      const made = await fetch('/api/integrations', {
        method: 'POST',
        headers,
        body: JSON.stringify({ type: 'http', name: 'CRM endpoint' }),
      });
      const id = ((await made.json()) as { _id: string })._id;
      await fetch(`/api/admin/integration/${id}/connect`, {
        method: 'PUT',
        headers,
        body: JSON.stringify({ settings: { url } }),
      });
      await fetch(`/api/integrations/${sourceId}/update`, {
        method: 'PUT',
        headers,
        body: JSON.stringify({ destination: [id] }),
      });
    },
    { sourceId, url },
  );
}

const copied = (page: Page) => page.getByTestId('copy-value');

test('a Google Ads lead and its test data arrive from the form\u2019s webhook; a wrong key is refused', async ({
  page,
}) => {
  await signUp(page, 'en', uniqueLogin('gads'), 'Secret123', '/admin/integrations');
  await page.getByRole('button', { name: i.list.new }).first().click();
  await createInDialog(page, 'Google Ads', 'Spring campaign form');
  await expect(page).toHaveURL(urlMatching(`/en/admin/integrations/googleads/${UUID}`));
  const sourceId = new URL(page.url()).pathname.split('/').pop()!;

  // The address and key are made on the screen, each shown with a copy button and how to paste them.
  await expect(page.getByText(g.connection.intro)).toBeVisible();
  await page.getByRole('button', { name: g.form.submit }).click();
  await expect(page.getByText(g.form.done)).toBeVisible();
  await expect(copied(page)).toHaveCount(2);
  const webhookUrl = (await copied(page).nth(0).textContent())!;
  const key = (await copied(page).nth(1).textContent())!;
  expect(webhookUrl).toMatch(/\/api\/googleads\/webhook\/[\w-]{40,}$/);
  expect(key).toMatch(/^[\w-]{40,}$/);
  await expect(page.locator('.ant-typography-copy')).toHaveCount(2);
  await expect(page.getByText(g.connection.steps)).toBeVisible();

  await sendTo(page, sourceId, receiver.hookUrl);

  // Google sends a lead (and retries it), then the form's "Send test data"; a stranger's key is refused.
  const leadId = `lead-${Date.now()}`;
  expect(
    await send({ webhookUrl, key, leadId, times: 2, name: 'Олена Коваль', phone: '067 123 45 67', city: 'Київ' }),
  ).toEqual([200, 200]);
  expect(await send({ webhookUrl, key, test: true })).toEqual([200]);
  expect(await send({ webhookUrl, key: `${key}-not`, name: 'Not Google' })).toEqual([403]);

  // The page's last leads: two, the real one sent twice.
  const items = page.getByTestId('source-item');
  await expect(items).toHaveCount(2, { timeout: 15_000 });
  await expect(page.getByText(leadId)).toBeVisible();

  // The lead log: two leads, the test one marked, nothing from the wrong key.
  await page.getByRole('tab', { name: i.tabs.leads }).click();
  const rows = page.getByTestId('hook-row');
  await expect(rows).toHaveCount(2);
  const real = rows.filter({ hasText: 'Олена Коваль' });
  await expect(real).toContainText('+380671234567');
  await expect(real).not.toContainText(t.hooks.warning.TEST_LEAD);
  await expect(rows.filter({ hasText: 'FirstName LastName' })).toContainText(t.hooks.warning.TEST_LEAD);
  await expect(page.getByText('Not Google')).toHaveCount(0);

  // The real lead reached the destination, once.
  await expect.poll(() => receiver.requests.filter((r) => r.rawBody.includes('Олена Коваль')).length).toBe(1);

  // A new key: the old one stops working at once, the address stays.
  await page.getByRole('tab', { name: i.tabs.settings }).click();
  await page.getByRole('button', { name: g.connection.change }).click();
  await page.getByRole('button', { name: g.form.submit }).click();
  // The first key's message may still be up beside the new one's.
  await expect(page.getByText(g.form.done).last()).toBeVisible();
  await expect(copied(page).nth(1)).not.toHaveText(key);
  await expect(copied(page).nth(0)).toHaveText(webhookUrl);
  const newKey = (await copied(page).nth(1).textContent())!;
  expect(await send({ webhookUrl, key, name: 'Old key' })).toEqual([403]);
  expect(await send({ webhookUrl, key: newKey, name: 'New key' })).toEqual([200]);
});

for (const [lang, words] of [
  ['uk', ukWords],
  ['en', enWords],
] as const) {
  for (const width of [375, 1440]) {
    test(`the Google Ads screen in ${lang} says every word in its language and fits at ${width} px`, async ({
      page,
    }) => {
      const l = texts[lang];
      await page.setViewportSize({ width, height: 900 });
      await signUp(page, lang, uniqueLogin(`gads-${lang}`), 'Secret123', '/admin/integrations');
      await page.getByRole('button', { name: l.integrations.list.new }).first().click();
      const dialog = page.getByRole('dialog', { name: l.integrations.create.title });
      await dialog.locator('label').filter({ hasText: 'Google Ads' }).first().click();
      await dialog
        .getByLabel(l.integrations.create.name)
        .fill(lang === 'uk' ? 'Форма весняної кампанії' : 'Spring form');
      await dialog.getByRole('button', { name: l.integrations.create.submit }).click();
      await expect(page).toHaveURL(urlMatching(`${l.prefix}/admin/integrations/googleads/${UUID}`));
      await expect(page.getByText(words.connection.intro)).toBeVisible();
      await expectFits(page, `googleads-new-${lang}-${width}`);
      await page.getByRole('button', { name: words.form.submit }).click();
      await expect(page.getByText(words.form.done)).toBeVisible();
      await expect(page.getByText(words.connection.steps)).toBeVisible();
      await expect(page.getByText(words.leads.empty)).toBeVisible();
      await forPicture(() => page.getByText(words.form.done).waitFor({ state: 'hidden' }));
      await expectFits(page, `googleads-connected-${lang}-${width}`);
    });
  }
}
