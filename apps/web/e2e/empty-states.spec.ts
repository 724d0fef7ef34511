import enSendpulse from '../../../packages/connectors/src/sendpulse/words/en.json' with { type: 'json' };
import ukSendpulse from '../../../packages/connectors/src/sendpulse/words/uk.json' with { type: 'json' };
import enSpeed from '../src/locales/en/speed.json' with { type: 'json' };
import ukSpeed from '../src/locales/uk/speed.json' with { type: 'json' };
import { signUp, sourceWithHttpDestinations } from './support/actions';
import { LANGS, texts, uniqueLogin } from './support/locales';
import { expectFits } from './support/screens';
import { expect, test } from './support/test';
import { UUID, urlIs, urlMatching } from './support/url';

// Issue 31, "Empty states that fit": a new account's type pages say what the type is for and offer
// its own first step (never "create a Webhook"), an unknown type is the 404 page, the speed report
// with no lead says what will appear there, and the widget page's button opens SendPulse's or
// Pipedrive's connect dialog. In both languages, on a phone and on a desktop.
const WIDTHS = [375, 1440];
const own = { uk: { sendpulse: ukSendpulse, speed: ukSpeed }, en: { sendpulse: enSendpulse, speed: enSpeed } };

for (const lang of LANGS) {
  const t = texts[lang];
  const o = own[lang];
  for (const width of WIDTHS) {
    test(`${lang} at ${width}px: empty type pages, a bogus type, the empty speed report, the widget's first step`, async ({
      page,
    }) => {
      await page.setViewportSize({ width, height: width < 768 ? 812 : 900 });
      await signUp(page, lang, uniqueLogin(`empty-${lang}-${width}`), 'Secret123');

      const pages = [
        { slug: 'telegram', words: t.telegram.list.empty.title, action: t.telegram.list.connect },
        { slug: 'horoshop', words: t.horoshop.list.empty.title, action: t.horoshop.list.empty.action },
        { slug: 'sendpulse', words: o.sendpulse.list.empty.title, action: o.sendpulse.list.connect },
      ];
      for (const { slug, words, action } of pages) {
        await page.goto(`${t.prefix}/admin/integrations/${slug}`);
        const empty = page.getByTestId('integrations-empty');
        await expect(empty.getByText(words, { exact: true })).toBeVisible();
        // The type's own first step, and none of the webhook's words.
        await expect(empty.getByRole('button', { name: action })).toBeVisible();
        await expect(empty).not.toContainText(t.integrations.catalogue.names.webhook);
        await expect(page.getByText(t.integrations.empty.text)).toHaveCount(0);
        await expectFits(page, `empty-${slug}-${lang}-${width}`);
      }

      // The shop's first step opens the new integration's dialog with its type chosen.
      await page.goto(`${t.prefix}/admin/integrations/horoshop`);
      await page.getByTestId('integrations-empty').getByRole('button', { name: t.horoshop.list.empty.action }).click();
      await expect(page.getByRole('dialog')).toBeVisible();

      await page.goto(`${t.prefix}/admin/integrations/bogus`);
      await expect(page.getByRole('heading', { name: t.pages.notFound.title })).toBeVisible();
      await expect(page.getByRole('heading', { name: 'bogus' })).toHaveCount(0);
      await expectFits(page, `empty-bogus-${lang}-${width}`);

      await page.goto(`${t.prefix}/admin/speed`);
      const speed = page.getByTestId('speed-empty');
      await expect(speed.getByText(o.speed.empty.title)).toBeVisible();
      await expect(speed.getByText(o.speed.empty.text)).toBeVisible();
      await expect(page.locator('.recharts-surface')).toHaveCount(0);
      await expectFits(page, `empty-speed-${lang}-${width}`);

      // The widget needs Pipedrive first: its button opens Pipedrive's connect dialog at once.
      await page.goto(`${t.prefix}/admin/widget`);
      await page.getByRole('button', { name: t.pipedrive.list.connect }).click();
      await expect(page).toHaveURL(urlIs(`${t.prefix}/admin/integrations/pipedrive?connect=1`));
      await expect(page.getByRole('dialog', { name: t.pipedrive.list.connect })).toBeVisible();
      await expectFits(page, `empty-widget-connect-${lang}-${width}`);
      // Closed, the dialog stays closed: the address forgets ?connect=1.
      await page.getByRole('dialog').getByRole('button', { name: t.crm.cancel }).click();
      await expect(page).toHaveURL(urlIs(`${t.prefix}/admin/integrations/pipedrive`));

      // A page for the platform's staff says why it did not open, on the dashboard it sends to.
      await page.goto(`${t.prefix}/admin/parsers`);
      await expect(page).toHaveURL(urlIs(`${t.prefix}/admin?error=ONLY_STAFF`));
      await expect(page.getByRole('alert').filter({ hasText: t.errors.ONLY_STAFF })).toBeVisible();
      await expectFits(page, `refused-parsers-${lang}-${width}`);
    });

    test(`${lang} at ${width}px: what is chosen is said: amoCRM's pipeline left unset, a destination's sources`, async ({
      page,
    }) => {
      const amo = t.amocrm;
      await page.setViewportSize({ width, height: width < 768 ? 812 : 900 });
      await signUp(page, lang, uniqueLogin(`chosen-${lang}-${width}`), 'Secret123', '/admin/integrations/amocrm');
      await page.getByRole('button', { name: amo.list.connect }).first().click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('button').last().click();
      // amoCRM's consent (the emulator) sends the browser back to the integration, connected.
      await expect(page).toHaveURL(urlMatching(`${t.prefix}/admin/integrations/amocrm/${UUID}`), { timeout: 15_000 });
      const amoPage = new URL(page.url()).pathname;
      await page.getByRole('tab', { name: amo.tabs.pipeline }).click();
      // Nothing chosen: the page says where a deal goes, and the status box offers that pipeline's statuses.
      const unset = page.getByTestId('pipeline-unset');
      await expect(unset).toHaveText(amo.settings.unsetMain.replace('{{name}}', 'Sales'));
      await expect(page.getByText(amo.settings.statusNeedsPipeline)).toHaveCount(0);
      await page.getByLabel(amo.settings.status, { exact: true }).click();
      await expect(page.locator('.ant-select-dropdown:visible .ant-select-item-option').first()).toBeVisible();
      await page.keyboard.press('Escape');
      await expectFits(page, `chosen-amocrm-pipeline-${lang}-${width}`);

      // A destination's page links back to the source that sends to it.
      const made = await sourceWithHttpDestinations(page, 'Site form', [{ name: 'Orders API' }]);
      await page.goto(`${t.prefix}/admin/integrations/http/${made.destinations[0]}`);
      const from = page.getByTestId('sent-from');
      await expect(from.getByRole('link', { name: 'Site form' })).toBeVisible();
      await expectFits(page, `chosen-http-sources-${lang}-${width}`);
      await from.getByRole('link', { name: 'Site form' }).click();
      await expect(page).toHaveURL(urlIs(`${t.prefix}/admin/integrations/webhook/${made.source}`));
      // amoCRM receives from nobody yet, and says so.
      await page.goto(amoPage);
      await expect(page.getByTestId('sent-from')).toHaveText(t.integrations.sentFrom.none);
    });
  }
}
