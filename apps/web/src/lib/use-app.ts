// The app's message, notification and modal: what antd's App.useApp gives, without antd's App in
// every page's first load (message, notification and modal are 17 KB gzipped). app/deferred-app.tsx
// provides them, loaded once the page has shown; a call made before then runs as soon as they have.
import type { App } from 'antd';
import { createContext, useContext } from 'react';

export type AppApi = ReturnType<typeof App.useApp>;

// Outside the provider, as outside antd's App: empty objects.
export const AppApiContext = createContext<AppApi>({ message: {}, notification: {}, modal: {} } as AppApi);

export function useApp(): AppApi {
  return useContext(AppApiContext);
}
