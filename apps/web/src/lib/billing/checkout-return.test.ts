import { describe, expect, it, vi } from 'vitest';
import { announceCheckoutReturn, CHECKOUT_RETURN_MESSAGE, framedCheckoutReturn } from './checkout-return';

function fakeWindow(href: string, framed: boolean) {
  const url = new URL(href);
  const parent = { postMessage: vi.fn() };
  const win = {
    location: { pathname: url.pathname, search: url.search, origin: url.origin },
    parent,
  } as unknown as Window & { parent: typeof parent };
  Object.assign(win, { self: win, top: framed ? parent : win });
  return win;
}

describe('the checkout’s return address', () => {
  it('inside the plan page’s frame, names the order in either language', () => {
    expect(framedCheckoutReturn(fakeWindow('http://app.test/admin/billing?order=o-1', true))).toBe('o-1');
    expect(framedCheckoutReturn(fakeWindow('http://app.test/en/admin/billing?order=o-2', true))).toBe('o-2');
  });

  it('opened in the top window, or elsewhere in a frame, is the app as usual', () => {
    expect(framedCheckoutReturn(fakeWindow('http://app.test/admin/billing?order=o-1', false))).toBeNull();
    expect(framedCheckoutReturn(fakeWindow('http://app.test/admin/plan?order=o-1', true))).toBeNull();
    expect(framedCheckoutReturn(fakeWindow('http://app.test/admin/billing', true))).toBeNull();
  });

  it('tells only a page of the same origin', () => {
    const win = fakeWindow('http://app.test/admin/billing?order=o-1', true);
    announceCheckoutReturn('o-1', win);
    expect(win.parent.postMessage).toHaveBeenCalledWith(
      { type: CHECKOUT_RETURN_MESSAGE, orderId: 'o-1' },
      'http://app.test',
    );
  });
});
