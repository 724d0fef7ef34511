import type { Locale } from '@leadrelay/shared';
import { useEffect } from 'react';
import { Outlet, useLocation } from 'react-router';
import { ImpersonationBanner } from '../components/impersonation-banner';
import { applyLocale } from '../lib/i18n';
import { readLangCookie, saveLanguage } from '../lib/locale';
import { captureHiddenActions, capturePromo } from '../lib/query-behaviours';
import { AppTheme } from './theme';

/** One language variant: i18n, antd and dayjs locale, and the query behaviours of every page. */
export function LocaleRoot({ locale }: { locale: Locale }) {
  applyLocale(locale);
  const { search } = useLocation();

  useEffect(() => {
    capturePromo(search);
    captureHiddenActions(search);
  }, [search]);

  useEffect(() => {
    // The page's language is the language the server should answer in (Lang header).
    if (readLangCookie() !== locale) saveLanguage(locale);
  }, [locale]);

  return (
    <AppTheme locale={locale}>
      <ImpersonationBanner />
      <Outlet />
    </AppTheme>
  );
}
