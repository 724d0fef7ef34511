// Issue 17 part 3: a Ukrainian user never sees English. The pages a client sees (the dashboard, the
// integrations list, the picker, a source with a failing destination, the failing destination, the
// lead log, the account pages) carry no Latin word but the names of docs/glossary.md
// (locales/names.json and each connector's names.json), e-mail addresses, addresses and technical tokens. The destination fails
// with the service's own English answer: it stays out of the page's text, folded under
// "Технічні подробиці".
import { type HttpEmulator, startHttpEmulator } from '@leadrelay/connectors/http/emulator';
import { namesPattern } from '@leadrelay/connectors/names-pattern';
import type { Page } from '@playwright/test';
import { signInByApi, signUp, sourceWithHttpDestinations } from './support/actions';
import { postLead } from './support/flow';
import { glossary } from './support/glossary';
import { texts, uniqueLogin } from './support/locales';
import { OWNER } from './support/owner';
import { PROM_SAMPLE } from './support/parsers';
import { settled } from './support/settled';
import { expect, test } from './support/test';

const t = texts.uk;
const ANSWER = 'Invalid OAuth access token';

let emulator: HttpEmulator;
test.beforeAll(async () => {
  emulator = await startHttpEmulator({ host: '127.0.0.1' });
  emulator.setFault({ status: 401, body: ANSWER });
});
test.afterAll(async () => {
  await emulator?.close();
});

// Longest first, so "Google Analytics" goes before "Google"; a name is a whole word, not a part of one.
const NAMES = namesPattern([...glossary.names, ...glossary.tokens]);

/** The Latin words of a text that no glossary name, address or technical token explains. */
function englishIn(text: string): string[] {
  const rest = text
    .replace(/\S+@\S+\.\S+/g, ' ') // e-mail addresses
    .replace(/https?:\/\/\S+/g, ' ') // addresses
    .replace(NAMES, ' ')
    // A token with a digit, a dot, a slash, a colon, an underscore or a hyphen inside: a host, a
    // field path (utm.source), a sample ID, a code.
    .replace(/\S*[A-Za-z]\S*[\d./:_-]\S*|\S*[\d./:_-]\S*[A-Za-z]\S*/g, ' ');
  // One letter alone is a monogram (the logo's L, an avatar's initial), not a word.
  return [...rest.matchAll(/[A-Za-z]{2,}/g)].map((m) => m[0]);
}

/**
 * What a person reads on the page: its text and the visible elements' labels and placeholders.
 * A code sample and a logo's letters are left out. The icons the app draws are aria-hidden (they sit beside
 * their words); the few that antd draws inside its own components (a password field's eye) still name
 * themselves by their file ("eye-invisible") to screen readers: not counted here, a gap of the library.
 */
async function visibleWords(page: Page, otherLanguage = '', within = 'body'): Promise<string> {
  return page.evaluate(
    ([other, rootSelector]) => {
      const root = document.querySelector<HTMLElement>(rootSelector) ?? document.body;
      const labels = [...root.querySelectorAll<HTMLElement>('[aria-label], [title], [placeholder]')]
        // A label inside an aria-hidden part (the chart, read out from its table) is never heard.
        .filter(
          (el) =>
            el.checkVisibility() &&
            !el.matches('.anticon[role="img"]') &&
            !el.closest('[aria-hidden="true"]') &&
            !(other && el.closest(other)),
        )
        .flatMap((el) => ['aria-label', 'title', 'placeholder'].map((a) => el.getAttribute(a) ?? ''));
      // A code sample (a curl command, a JSON body) or a code (a referral code, marked translate="no")
      // is not words; a logo's letters are a picture; a part marked as in another language (lang) is
      // that language's, said so on the page.
      const hide = document.createElement('style');
      hide.textContent = `pre, code, [data-logo], [translate="no"]${other ? `, ${other}` : ''} { display: none !important; }`;
      document.head.append(hide);
      const text = root.innerText;
      hide.remove();
      // The tab's title repeating a heading marked as another language's (a post's title) is that language's too.
      const marked = other
        ? [...document.querySelectorAll<HTMLElement>(`h1:is(${other})`)].map((h) => h.innerText)
        : [];
      const title = marked.some((h) => h && document.title.startsWith(h)) ? '' : document.title;
      return [rootSelector === 'body' ? title : '', text, ...labels].join('\n');
    },
    [otherLanguage, within] as const,
  );
}

/** The page (or the part `within` selects) reads in Ukrainian. */
async function expectUkrainian(page: Page, where: string, within?: string): Promise<void> {
  await settled(page);
  const text = await visibleWords(page, '', within);
  const english = englishIn(text);
  expect(english, `${where}: Latin words outside the glossary in\n${text}`).toEqual([]);
}

/** Ukrainian (Cyrillic) words of a text. */
const ukrainianIn = (text: string): string[] => [...text.matchAll(/\p{Script=Cyrillic}+/gu)].map((m) => m[0]);

/** An English page: no Ukrainian word, but in a part marked lang="uk" (a post written only in Ukrainian, a language's own name). */
async function expectEnglish(page: Page, where: string): Promise<void> {
  await settled(page);
  const text = await visibleWords(page, '[lang="uk"]');
  expect(ukrainianIn(text), `${where}: Ukrainian words on an English page in\n${text}`).toEqual([]);
}

test('uk: the pages a client sees carry no English, a service’s English answer only under technical details', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signUp(page, 'uk', uniqueLogin('words'), 'Slova2024x');
  await expectUkrainian(page, 'dashboard, new account');

  // A source with a destination whose service refuses the credentials, in its own English.
  const route = await sourceWithHttpDestinations(page, 'Форма сайту', [{ name: 'Стара CRM', url: emulator.hookUrl }]);
  const ids = { source: route.source, dead: route.destinations[0]! };

  await page.goto(`${t.prefix}/admin/integrations/http/${ids.dead}`);
  await expect(page.locator('.lr-int-subtitle [data-state="broken_auth"]')).toBeVisible();
  const alert = page.getByTestId('state-alert');
  await expect(alert).toContainText(t.integrations.reasons.AUTH);
  // The service's answer is not read out; it waits, folded, under a Ukrainian label.
  const details = alert.getByTestId('reason-details');
  await expect(details.locator('summary')).toHaveText(t.common.technicalDetails);
  await expect(details.locator('code')).toBeHidden();
  await expectUkrainian(page, 'a destination that fails');
  await details.locator('summary').click();
  await expect(details.locator('code')).toHaveText(ANSWER);

  // A lead through the source: its log shows the failed delivery.
  await page.goto(`${t.prefix}/admin/integrations/webhook/${ids.source}`);
  const hookUrl = await page.getByRole('textbox', { name: t.integrations.webhook.url }).inputValue();
  await postLead(hookUrl, { name: 'Олена Петренко', phone: '+380501234567', email: 'olena@example.com' });
  await expectUkrainian(page, 'a source');
  await page.goto(`${t.prefix}/admin/integrations/webhook/${ids.source}?tab=destinations`);
  await expect(page.getByTestId('destination-row')).toHaveCount(1);
  await expectUkrainian(page, 'a source’s destinations');
  await page.goto(`${t.prefix}/admin/integrations/webhook/${ids.source}?tab=leads`);
  await expect(page.getByText('Олена Петренко').first()).toBeVisible();
  await expectUkrainian(page, 'the lead log');

  await page.goto(`${t.prefix}/admin/integrations`);
  await expect(page.locator('[data-state="broken_auth"]').first()).toBeVisible();
  await expectUkrainian(page, 'the integrations list');

  await page.getByRole('button', { name: t.integrations.list.new }).first().click();
  await expect(page.getByRole('dialog', { name: t.integrations.create.title })).toBeVisible();
  await expect(page.locator('.lr-picker-type').first()).toBeVisible();
  await expectUkrainian(page, 'the picker');

  await page.goto(`${t.prefix}/admin`);
  await expect(page.getByText('Олена Петренко').first()).toBeVisible();
  await expectUkrainian(page, 'the dashboard');

  for (const path of ['/admin/account', '/admin/plan', '/admin/billing', '/admin/referral']) {
    await page.goto(`${t.prefix}${path}`);
    await expect(page.locator('main')).toBeVisible();
    await expectUkrainian(page, path);
  }
});

test('uk: the super-admin catalogue, a webhook’s field preview and a parser’s fields carry no English', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  const c = t.catalogue;
  // The catalogue: type names, categories and tags in Ukrainian (the stored values are codes).
  await signInByApi(page, 'uk', OWNER.login, OWNER.password, '/admin/super/integrations');
  await expect(page.getByRole('cell', { name: t.integrations.catalogue.names.parser, exact: true })).toBeVisible();
  await expectUkrainian(page, 'the catalogue’s types');
  await page.goto(`${t.prefix}/admin/super/integrations/categories`);
  await expect(page.getByRole('cell', { name: t.integrations.catalogue.categories.Sources })).toBeVisible();
  await expectUkrainian(page, 'the catalogue’s categories');
  await page.goto(`${t.prefix}/admin/super/integrations/modules`);
  await expect(page.getByRole('heading', { name: c.modules.title })).toBeVisible();
  await expectUkrainian(page, 'the catalogue’s modules');

  // A webhook's mapping: the preview names UTM and custom fields in Ukrainian.
  const route = await sourceWithHttpDestinations(page, 'Форма сайту', [{ name: 'Стара CRM', url: emulator.hookUrl }]);
  await page.goto(`${t.prefix}/admin/integrations/webhook/${route.source}?tab=mapping`);
  const preview = page.getByTestId('mapping-preview');
  await expect(preview.locator('[data-field="utm.source"]')).toBeVisible();
  await expect(preview).toContainText(t.common.leadFields.utm_source);
  // The preview (the editor beside it lists the sender's own keys, as data).
  await expectUkrainian(page, 'a webhook’s mapping preview', '[data-testid="mapping-preview"]');

  // A parser's fields from a pasted order mail: named in Ukrainian, the key only as a code.
  await page.goto(`${t.prefix}/admin/parsers/create`);
  await page.getByLabel(t.parsers.create.name, { exact: true }).fill('Замовлення з Prom.ua');
  await page.getByText(t.parsers.create.presets.prom).click();
  await page.getByRole('button', { name: t.parsers.create.submit }).click();
  await page.getByRole('textbox', { name: t.parsers.sample.title }).fill(PROM_SAMPLE);
  const fields = page.getByTestId('parser-preview');
  await expect(fields.getByText(t.parsers.sample.matched)).toBeVisible();
  await expect(fields).toContainText('Олена Петренко');
  // The fields (their values are the mail's own words, as data).
  await expect(fields.locator('.lr-parser-fields')).toContainText(t.common.leadFields.order_id);
  await expectUkrainian(page, 'a parser’s fields', '[data-testid="parser-preview"] .lr-parser-fields');
});

test('en: an English page carries no Ukrainian: the plan’s name, a post in both languages, a post only in Ukrainian said so', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  const en = texts.en;
  // Paid in Ukrainian: the stored plan title is «Бізнес»; the English page names it in English.
  await signUp(page, 'uk', uniqueLogin('words-en'), 'Slova2024x');
  await page.goto(`${t.prefix}/admin/plan`);
  await page
    .getByRole('region', { name: 'Бізнес' })
    .getByRole('button', { name: t.plans.actions.pay, exact: true })
    .click();
  const checkout = page.getByRole('dialog').filter({ has: page.getByTestId('checkout-frame') });
  await expect(checkout).toBeVisible();
  await page.frameLocator('[data-testid="checkout-frame"]').getByTestId('liqpay-pay').click();
  await expect(checkout).toBeHidden();
  await expect(page.getByTitle(t.layout.header.changePlan).first()).toContainText('Бізнес');
  await page.goto(`${en.prefix}/admin`);
  await expect(page.getByTitle(en.layout.header.changePlan).first()).toContainText('Business');
  await expectEnglish(page, 'the dashboard of a paid account');
  for (const path of ['/admin/plan', '/admin/billing']) {
    await page.goto(`${en.prefix}${path}`);
    await expect(page.locator('main')).toBeVisible();
    await expectEnglish(page, path);
  }

  // Two posts by staff: one in both languages, one only in Ukrainian.
  const staff = await request.post('/api/auth/login', { data: { login: OWNER.login, password: OWNER.password } });
  const token = (await staff.json()).accessToken as string;
  const png = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
    'base64',
  );
  const publish = async (fields: Record<string, string>) => {
    const res = await request.post('/api/legacy/api/post/admin', {
      headers: { authorization: `Bearer ${token}` },
      multipart: { ...fields, image: { name: 'a.png', mimeType: 'image/png', buffer: png } },
    });
    expect(res.status(), await res.text()).toBe(201);
    return (await res.json())._id as string;
  };
  const stamp = Date.now();
  const both = await publish({
    title: `Нова інтеграція ${stamp}`,
    text: '<p>Ліди йдуть в Uspacy.</p>',
    titleEn: `A new integration ${stamp}`,
    textEn: '<p>Leads go to Uspacy.</p><p>In a second.</p>',
  });
  const ukOnly = await publish({ title: `Лише українською ${stamp}`, text: '<p>Текст без перекладу.</p>' });

  await page.goto(`${en.prefix}/news/${both}`);
  await expect(page.getByRole('heading', { name: `A new integration ${stamp}` })).toBeVisible();
  await expectEnglish(page, 'a post in both languages');
  await page.goto(`${en.prefix}/news/${ukOnly}`);
  await expect(page.getByTestId('post-only-uk')).toHaveText(en.news.onlyUk);
  await expectEnglish(page, 'a post only in Ukrainian');
  await page.goto(`${en.prefix}/news`);
  await expect(page.getByText(`A new integration ${stamp}`)).toBeVisible();
  await expectEnglish(page, 'the news list');
  // And the Ukrainian pages read the Ukrainian version.
  await page.goto(`${t.prefix}/news/${both}`);
  await expect(page.getByRole('heading', { name: `Нова інтеграція ${stamp}` })).toBeVisible();
});

test('the check finds Ukrainian on an English page: Cyrillic words are named', () => {
  expect(ukrainianIn('Plan: Бізнес, 30 days left')).toEqual(['Бізнес']);
  expect(ukrainianIn('Plan: Business, 30 days left')).toEqual([]);
});

test('the check finds English: a run of Latin words outside the glossary is named', () => {
  expect(englishIn('Доставка не вдалася (Invalid OAuth access token)')).toEqual([
    'Invalid',
    'OAuth',
    'access',
    'token',
  ]);
  expect(englishIn('Вебхуки · Webhook')).toEqual(['Webhook']);
  expect(
    englishIn('L Угоди в amoCRM і Pipedrive, події в Google Analytics 4, olena@example.com, utm.source, 127.0.0.1:9'),
  ).toEqual([]);
});
