import type { Page } from '@playwright/test';
import { signUp } from './support/actions';
import { LANGS, type Lang, texts, uniqueLogin } from './support/locales';
import { expectFits } from './support/screens';
import { expect, test } from './support/test';

// Issue 19: a member's working hours and away switch on the collections page, and a source's
// "nobody on duty" and escalation settings under its distribution; in both languages, on a phone
// and a desktop, each screen fitting it (and, with SCREENS=1, saved to test-results/screens/ for a
// person to look at).
const WIDTHS = [375, 1440];

const fill = (template: string, params: Record<string, string | number>) =>
  template.replace(/\{\{(\w+)\}\}/g, (_, k: string) => String(params[k]));
const weekday = (lang: Lang, d: number) =>
  new Intl.DateTimeFormat(lang === 'uk' ? 'uk-UA' : 'en-GB', { weekday: 'long', timeZone: 'UTC' }).format(
    new Date(Date.UTC(2024, 0, 1 + d)),
  );

/** Through the API, as the page's user: a collection of two managers and a webhook source distributing to it. */
function setUp(page: Page) {
  return page.evaluate(async () => {
    const headers = {
      authorization: `Bearer ${localStorage.getItem('sessionToken')}`,
      'content-type': 'application/json',
    };
    const send = async (method: string, url: string, body: object) =>
      (await fetch(url, { method, headers, body: JSON.stringify(body) })).json();
    const collection = await send('POST', '/api/legacy/api/admin/collection', {
      name: 'Sales',
      items: [
        { name: 'Iryna', value: '101' },
        { name: 'Andriy', value: '102' },
      ],
    });
    const source = await send('POST', '/api/integrations', {
      type: 'webhook',
      name: 'Site form',
      distributionId: collection._id,
    });
    return { collectionId: collection._id as string, sourceId: source._id as string };
  });
}

const readBack = (page: Page, url: string) =>
  page.evaluate(
    async (u) =>
      (await fetch(u, { headers: { authorization: `Bearer ${localStorage.getItem('sessionToken')}` } })).json(),
    url,
  );

for (const lang of LANGS) {
  const t = texts[lang];
  const c = t.collections;
  const r = t.integrations.routing;
  for (const width of WIDTHS) {
    test(`${lang} at ${width}px: a member's working hours, the away switch and a source's escalation`, async ({
      page,
    }) => {
      await page.setViewportSize({ width, height: width < 768 ? 812 : 900 });
      await signUp(page, lang, uniqueLogin(`hours-${lang}-${width}`), 'Secret123');
      const { collectionId, sourceId } = await setUp(page);

      await page.goto(`${t.prefix}/admin/collections`);
      const card = page.getByTestId(`collection-${collectionId}`);
      await expect(card.getByText(c.hours.always).first()).toBeVisible();
      await card.getByRole('button', { name: fill(c.hours.editNamed, { name: 'Iryna' }) }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('switch').click();
      // Office hours to start with (Kyiv); Monday ends at 17:00 and Saturday gets a short shift.
      await dialog.getByLabel(fill(c.hours.to, { day: weekday(lang, 0), n: 1 })).fill('17:00');
      await dialog.getByRole('button', { name: fill(c.hours.addShiftOn, { day: weekday(lang, 5) }) }).click();
      await dialog.getByLabel(fill(c.hours.from, { day: weekday(lang, 5), n: 1 })).fill('10:00');
      await dialog.getByLabel(fill(c.hours.to, { day: weekday(lang, 5), n: 1 })).fill('14:00');
      await dialog.getByLabel(c.hours.daysOff).fill('2026-12-31');
      await dialog.getByLabel(c.hours.daysOff).press('Enter');
      await expectFits(page, `hours-dialog-${lang}-${width}`);
      await dialog.getByRole('button', { name: t.common.save }).click();
      await expect(dialog).toBeHidden();
      await expect(card.getByText(/09:00–17:00/)).toBeVisible();

      await card.getByRole('switch', { name: fill(c.away.switchNamed, { name: 'Andriy' }) }).click();
      await expect(page.getByText(fill(c.away.on, { name: 'Andriy' }))).toBeVisible();
      await expectFits(page, `collections-hours-${lang}-${width}`);

      const saved = await readBack(page, `/api/legacy/api/admin/collection/${collectionId}`);
      expect(saved.items[0].hours).toEqual({
        timeZone: 'Europe/Kyiv',
        week: [
          [{ from: '09:00', to: '17:00' }],
          ...[1, 2, 3, 4].map(() => [{ from: '09:00', to: '18:00' }]),
          [{ from: '10:00', to: '14:00' }],
          [],
        ],
        daysOff: ['2026-12-31'],
      });
      expect(saved.items[1].away).toBe(true);

      // The source: when nobody is on, Andriy gets it; an untaken lead passes on after 20 minutes.
      await page.goto(`${t.prefix}/admin/integrations/webhook/${sourceId}`);
      await page.getByRole('tab', { name: fill(t.integrations.tabs.destinations, { n: 0 }) }).click();
      await page.getByRole('radio', { name: r.fallback }).check();
      await page.getByRole('combobox', { name: r.fallbackPerson }).click();
      await page.locator('.ant-select-item-option[title="Andriy"]').click();
      await page.getByRole('switch', { name: r.escalate }).click();
      await page.getByRole('spinbutton', { name: r.minutes }).fill('20');
      await page.locator('.lr-routing').getByRole('button', { name: t.common.save }).click();
      await expect(page.getByText(t.common.saved).first()).toBeVisible();
      await expectFits(page, `escalation-${lang}-${width}`);
      const source = await readBack(page, `/api/integrations/${sourceId}`);
      expect(source.options.routing).toEqual({
        whenNobody: 'fallback',
        fallbackItemId: saved.items[1].id,
        escalateAfterMinutes: 20,
      });
    });
  }
}
