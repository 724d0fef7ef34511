import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { Providers } from './app/providers';
import { router } from './app/router';
import { installPreloadErrorHandler } from './lib/chunk-reload';
import { setHttpNavigator } from './lib/http';
import './styles.css';

installPreloadErrorHandler();
setHttpNavigator((url) => void router.navigate(url, { replace: true }));

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <Providers>
      <RouterProvider router={router} />
    </Providers>
  </StrictMode>,
);
