// antd's App with its weight after the page (issue 17 part 8): message, notification and modal
// (17 KB gzipped) load once the first page has shown, and lib/use-app.ts's useApp gives them as
// App.useApp does. A call made before they have loaded runs as soon as they have.
import { theme } from 'antd';
import { lazy, type ReactNode, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { type AppApi, AppApiContext } from '../lib/use-app';

type Methods = Record<string, (...args: unknown[]) => unknown>;

const AppHolders = lazy(() => import('./app-holders').then((m) => ({ default: m.AppHolders })));

function deferred(): { promise: Promise<AppApi>; resolve: (api: AppApi) => void } {
  let resolve: (api: AppApi) => void = () => {};
  const promise = new Promise<AppApi>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** Each method call waits for the loaded API and settles with what it returns (antd's are thenables). */
function waitingFor(loaded: Promise<AppApi>): AppApi {
  const part = <K extends keyof AppApi>(key: K): AppApi[K] =>
    new Proxy({} as AppApi[K], {
      get:
        (_target, method: string) =>
        (...args: unknown[]) =>
          loaded.then((api) => (api[key] as unknown as Methods)[method]?.(...args)),
    });
  return { message: part('message'), notification: part('notification'), modal: part('modal') };
}

/** `className`: as antd's App's wrapper, the class of the theme's CSS variables (var(--ant-…) in our CSS). */
export function DeferredApp({ className, children }: { className?: string; children: ReactNode }) {
  const { token } = theme.useToken();
  const [loaded] = useState(deferred);
  const [api, setApi] = useState<AppApi | null>(null);
  const [isShown, setIsShown] = useState(false);
  // Effects run once the first page has been committed: the holders' code is fetched after it.
  useEffect(() => setIsShown(true), []);
  const onReady = useCallback(
    (ready: AppApi) => {
      loaded.resolve(ready);
      setApi(ready);
    },
    [loaded],
  );
  const value = useMemo(() => api ?? waitingFor(loaded.promise), [api, loaded]);
  // The text style antd's App puts on its wrapper.
  const style = {
    color: token.colorText,
    fontSize: token.fontSize,
    lineHeight: token.lineHeight,
    fontFamily: token.fontFamily,
  };
  return (
    <AppApiContext.Provider value={value}>
      <div className={className} style={style}>
        {isShown && (
          <Suspense fallback={null}>
            <AppHolders onReady={onReady} />
          </Suspense>
        )}
        {children}
      </div>
    </AppApiContext.Provider>
  );
}
