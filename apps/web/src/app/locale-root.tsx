import type { Locale } from '@leadrelay/shared';
import { lazy, Suspense, useEffect, useState } from 'react';
import { Outlet, ScrollRestoration, useLocation } from 'react-router';
import { FullPageSpinner } from '../components/full-page-spinner';
import { useRouteTitle } from '../components/page-title';
import { applyLocale, isLanguageLoaded, loadLanguage } from '../lib/i18n';
import { useImpersonation } from '../lib/impersonation';
import { readLangCookie, saveLanguage } from '../lib/locale';
import { captureHiddenActions, capturePromo } from '../lib/query-behaviours';
import { uiLanguage } from '../lib/ui-language';
import { useRouteDocumentTitle } from '../lib/use-document-title';

/** One language variant: i18n, antd and dayjs locale, and the query behaviours of every page. */
export function LocaleRoot({ locale }: { locale: Locale }) {
  const language = uiLanguage(locale);
  const loaded = isLanguageLoaded(language);
  const [, setLoadedLanguage] = useState<string>();
  if (loaded) applyLocale(locale);
  const { search } = useLocation();

  useEffect(() => {
    // A client-side move into the other language (the root's redirect to /en) fetches its strings first.
    if (!loaded) void loadLanguage(language).then(() => setLoadedLanguage(language));
  }, [loaded, language]);

  useEffect(() => {
    capturePromo(search);
    captureHiddenActions(search);
  }, [search]);

  useEffect(() => {
    // The page's language is the language the server should answer in (Lang header).
    if (readLangCookie() !== locale) saveLanguage(locale);
  }, [locale]);

  if (!loaded) return <FullPageSpinner />;
  return <LocaleRootLoaded locale={locale} />;
}

// The banner (antd, in its own theme) loads only in an entered session, never on a first /signin.
const ImpersonationBanner = lazy(() =>
  import('./themed-impersonation-banner').then((m) => ({ default: m.ThemedImpersonationBanner })),
);

function LocaleRootLoaded({ locale }: { locale: Locale }) {
  useRouteDocumentTitle(useRouteTitle());
  const entered = useImpersonation();
  return (
    <>
      {entered && (
        <Suspense fallback={null}>
          <ImpersonationBanner locale={locale} />
        </Suspense>
      )}
      <Outlet />
      {/* A new page opens at its top, back returns where it was left; a tab (?tab=) of the same page keeps its place. */}
      <ScrollRestoration getKey={(location) => location.pathname} />
    </>
  );
}
