// The provider sends the buyer back to /admin/billing?order=ID (the checkout's result address).
// Paid in the plan page's frame, that page would open inside the frame: instead the frame tells
// the page around it (same origin) that the checkout is done, and shows one line.
import { stripLocale } from '../locale';

export const CHECKOUT_RETURN_MESSAGE = 'leadrelay:checkout-return';

/** The order id when this window is the checkout's return inside our own frame, else null. */
export function framedCheckoutReturn(win: Window = window): string | null {
  let framed: boolean;
  try {
    framed = win.self !== win.top;
  } catch {
    framed = true; // a cross-origin parent cannot even be compared
  }
  if (!framed || stripLocale(win.location.pathname) !== '/admin/billing') return null;
  return new URLSearchParams(win.location.search).get('order');
}

/** Tells the page around the frame; it then asks the server how the order went. */
export function announceCheckoutReturn(orderId: string, win: Window = window): void {
  win.parent.postMessage({ type: CHECKOUT_RETURN_MESSAGE, orderId }, win.location.origin);
}
