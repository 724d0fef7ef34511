import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { LanguageSwitcher } from '../../components/language-switcher';
import { Logo } from '../../components/logo';
import { buttonClass } from '../../components/plain/button';
import { isTokenFresh, useToken } from '../../lib/auth';
import { localePath, stripLocale } from '../../lib/locale';
import { LINKS } from '../links';
import { PageTransition } from './page-transition';

/**
 * Public pages: header (sign-in / control panel, sign-up on the root, language) and footer. Plain
 * markup: /signin shows in this frame before antd loads (issue 17 part 8); the pages that use antd
 * bring it with them (app/routes.tsx, `withTheme`).
 */
export function AdminLayout() {
  const { t } = useTranslation('layout');
  const signedIn = isTokenFresh(useToken());
  const onRoot = stripLocale(useLocation().pathname) === '/';
  return (
    <div className="lr-public">
      <header className="lr-public-header">
        <Logo />
        <nav className="lr-public-nav">
          <LanguageSwitcher size="small" />
          {signedIn ? (
            <Link to={localePath('/admin')} className={buttonClass('primary')}>
              {t('public.controlPanel')}
            </Link>
          ) : (
            <>
              <Link to={localePath('/signin')} className={buttonClass('text')}>
                {t('public.signin')}
              </Link>
              {onRoot && (
                <Link to={localePath('/signup')} className={buttonClass('primary')}>
                  {t('public.signup')}
                </Link>
              )}
            </>
          )}
        </nav>
      </header>
      <main className="lr-public-content">
        <PageTransition />
      </main>
      <footer className="lr-public-footer">
        <span>© {new Date().getFullYear()} LeadRelay</span>
        <a href={LINKS.terms} target="_blank" rel="noreferrer">
          {t('public.terms')}
        </a>
        <a href={LINKS.privacy} target="_blank" rel="noreferrer">
          {t('public.privacy')}
        </a>
      </footer>
    </div>
  );
}
