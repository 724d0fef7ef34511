import { signUp } from './support/actions';
import { LANGS, texts, uniqueLogin } from './support/locales';
import { expectFits } from './support/screens';
import { expect, test } from './support/test';
import { urlIs } from './support/url';

// Issue 31 part 6: a phone's header has no room for the language switch, so the menu carries it.
for (const lang of LANGS) {
  const t = texts[lang];
  const other = lang === 'uk' ? 'en' : 'uk';
  test(`${lang} at 375px: the phone menu switches the language and the page follows`, async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 812 });
    await signUp(page, lang, uniqueLogin(`phone-lang-${lang}`), 'Secret123');
    await page.goto(`${t.prefix}/admin/collections`);
    await page.getByRole('button', { name: t.layout.menu.open }).click();
    const drawer = page.getByRole('dialog');
    const switcher = drawer.getByRole('radiogroup', { name: t.common.language.label });
    await expect(switcher).toBeVisible();
    await expectFits(page, `phone-menu-language-${lang}-375`);
    // The switch saves the choice and reloads the same page in the other language's prefix.
    await switcher.getByText(t.common.language[`short_${other}`], { exact: true }).click();
    await expect(page).toHaveURL(urlIs(`${texts[other].prefix}/admin/collections`));
    await expect(page.getByRole('heading', { level: 2 }).first()).toHaveText(texts[other].collections.title);
  });
}
