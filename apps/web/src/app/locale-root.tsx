import type { Locale } from '@leadrelay/shared';
import { useEffect, useState } from 'react';
import { Outlet, useLocation } from 'react-router';
import { FullPageSpinner } from '../components/full-page-spinner';
import { ImpersonationBanner } from '../components/impersonation-banner';
import { useRouteTitle } from '../components/page-title';
import { applyLocale, isLanguageLoaded, loadLanguage } from '../lib/i18n';
import { readLangCookie, saveLanguage } from '../lib/locale';
import { captureHiddenActions, capturePromo } from '../lib/query-behaviours';
import { uiLanguage } from '../lib/ui-language';
import { useRouteDocumentTitle } from '../lib/use-document-title';
import { AppTheme } from './theme';

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

function LocaleRootLoaded({ locale }: { locale: Locale }) {
  useRouteDocumentTitle(useRouteTitle());
  return (
    <AppTheme locale={locale}>
      <ImpersonationBanner />
      <Outlet />
    </AppTheme>
  );
}
