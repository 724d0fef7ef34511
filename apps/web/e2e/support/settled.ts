import { expect, type Page } from '@playwright/test';

/**
 * The page has shown what it loads: no skeleton or spinner left, fonts and images in. Used where a
 * step needs the screen finished (a screenshot, a width check) instead of "networkidle", which
 * never comes while socket.io holds a long-polling request open (it did, under load, before the
 * upgrade to a WebSocket).
 */
export async function settled(page: Page): Promise<void> {
  await page.waitForLoadState('load');
  await expect(page.locator('.ant-skeleton:visible, .ant-spin-spinning:visible, .lr-spin-lg:visible')).toHaveCount(0, {
    timeout: 15_000,
  });
  await page.evaluate(async () => {
    // A window just resized: the layout's breakpoints (matchMedia listeners) re-render on the next
    // frames (a table becomes cards); two frames let React commit and the browser lay it out.
    await new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done())));
    await document.fonts.ready;
    // Images outside the screen with loading="lazy" may never load: wait for the others only.
    const pending = [...document.images].filter((img) => !img.complete && img.loading !== 'lazy');
    await Promise.all(
      pending.map(
        (img) =>
          new Promise<void>((done) => {
            img.addEventListener('load', () => done(), { once: true });
            img.addEventListener('error', () => done(), { once: true });
          }),
      ),
    );
  });
}
