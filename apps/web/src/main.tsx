import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { Providers } from './app/providers';
import { router } from './app/router';
import { announceCheckoutReturn, framedCheckoutReturn } from './lib/billing/checkout-return';
import { installPreloadErrorHandler } from './lib/chunk-reload';
import { setHttpNavigator } from './lib/http';
import { i18n, loadLanguage, loadSavedTranslations } from './lib/i18n';
import { startSupportChat } from './lib/support-chat';
import './styles.css';

const root = createRoot(document.getElementById('root') as HTMLElement);
const returnedOrder = framedCheckoutReturn();
// The page's strings come first: one language's chunk, fetched beside the route's code.
await loadLanguage(i18n.language, returnedOrder ? 'all' : 'start');

if (returnedOrder) {
  // The checkout in the plan page's frame came back: the page around it takes over, no app here.
  announceCheckoutReturn(returnedOrder);
  root.render(<p className="lr-checkout-returning">{i18n.t('billing:pay.returning')}</p>);
} else {
  installPreloadErrorHandler();
  void startSupportChat();
  loadSavedTranslations();
  setHttpNavigator((url) => void router.navigate(url, { replace: true }));
  root.render(
    <StrictMode>
      <Providers>
        <RouterProvider router={router} />
      </Providers>
    </StrictMode>,
  );
}
