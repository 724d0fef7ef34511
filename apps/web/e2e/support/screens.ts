import { fileURLToPath } from 'node:url';
import { expect, type Page } from '@playwright/test';
import { settled } from './settled';

/**
 * SCREENS=1 (`npm run screens`): every screen a test checks is also saved as a PNG, for a person to
 * look at before a change of the UI lands. Without it the checks run and nothing is written.
 */
export const SCREENS = Boolean(process.env.SCREENS);
/** Where the PNGs go: test-results/screens/ at the repository's root. */
export const SCREENS_DIR = fileURLToPath(new URL('../../../../test-results/screens/', import.meta.url));

/** Steps that only make the picture better (a toast gone, the page at its top): run with SCREENS only. */
export async function forPicture(step: () => Promise<unknown>): Promise<void> {
  if (SCREENS) await step();
}

/**
 * The screen fits: the page is no wider than the window, and nothing that shows is cut off at the
 * window's side (a fixed dialog wider than a phone, a row under a parent that hides what sticks out
 * and itself reaches past the side). What sits in a part that scrolls sideways by design (a wide
 * table's own scroller) is reachable and not counted, nor is what a parent hides entirely (a table
 * kept for screen readers in a 1 px box). With SCREENS set, the screen is then saved as `name`.png.
 */
export async function expectFits(page: Page, name: string, { fullPage = true } = {}): Promise<void> {
  await settled(page);
  const { scrollWidth, innerWidth, cutOff } = await page.evaluate(() => {
    const width = window.innerWidth;
    const cut: string[] = [];
    for (const el of document.body.querySelectorAll('*')) {
      const box = el.getBoundingClientRect();
      if (box.left >= -1 && box.right <= width + 1) continue;
      if (!el.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue;
      // What of it shows: its box within every parent that clips, up to a parent that scrolls
      // sideways (then it can be scrolled to) or the page.
      let { left, right, top, bottom } = box;
      let clipped = false;
      let scrolls = false;
      let fixed = getComputedStyle(el).position === 'fixed';
      for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
        const style = getComputedStyle(up);
        if (style.overflowX === 'auto' || style.overflowX === 'scroll') {
          scrolls = true;
          break;
        }
        if (style.overflowX !== 'visible' || style.overflowY !== 'visible') {
          const edge = up.getBoundingClientRect();
          left = Math.max(left, edge.left);
          right = Math.min(right, edge.right);
          top = Math.max(top, edge.top);
          bottom = Math.min(bottom, edge.bottom);
          clipped = true;
        }
        if (style.position === 'fixed') fixed = true;
      }
      if (scrolls) continue;
      // Nothing of it shows (a visually hidden label is 1 px).
      if (right - left < 2 || bottom - top < 2) continue;
      // Neither clipped nor fixed, it widens the page: the width check below says so.
      if (!clipped && !fixed) continue;
      // Clipped inside the window, away from its sides (a card that cuts its own content): not
      // the screen's doing. Clipped at the window's side, or fixed past it: cut off there.
      if (!fixed && left > 1 && right < width - 1) continue;
      const cls = typeof el.className === 'string' ? el.className.trim().split(/\s+/).slice(0, 3).join('.') : '';
      const text = (el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40);
      cut.push(
        `<${el.tagName.toLowerCase()}${cls ? `.${cls}` : ''}> ${Math.round(left)}…${Math.round(right)} "${text}"`,
      );
    }
    return { scrollWidth: document.documentElement.scrollWidth, innerWidth: width, cutOff: cut };
  });
  expect(scrollWidth, `${name} is wider than the screen`).toBeLessThanOrEqual(innerWidth);
  expect(cutOff, `${name}: cut off at the screen's side`).toEqual([]);
  if (SCREENS) await page.screenshot({ path: `${SCREENS_DIR}${name}.png`, fullPage });
}
