import { Button, Layout } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { LanguageSwitcher } from '../../components/language-switcher';
import { Logo } from '../../components/logo';
import { isTokenFresh, useToken } from '../../lib/auth';
import { localePath, stripLocale } from '../../lib/locale';
import { LINKS } from '../links';
import { PageTransition } from './page-transition';

/** Public pages: header (sign-in / control panel, sign-up on the root, language) and footer. */
export function AdminLayout() {
  const { t } = useTranslation('layout');
  const signedIn = isTokenFresh(useToken());
  const onRoot = stripLocale(useLocation().pathname) === '/';
  return (
    <Layout className="lr-public">
      <Layout.Header className="lr-public-header">
        <Logo />
        <nav className="lr-public-nav">
          <LanguageSwitcher size="small" />
          {signedIn ? (
            <Link to={localePath('/admin')}>
              <Button type="primary">{t('public.controlPanel')}</Button>
            </Link>
          ) : (
            <>
              <Link to={localePath('/signin')}>
                <Button type="text">{t('public.signin')}</Button>
              </Link>
              {onRoot && (
                <Link to={localePath('/signup')}>
                  <Button type="primary">{t('public.signup')}</Button>
                </Link>
              )}
            </>
          )}
        </nav>
      </Layout.Header>
      <Layout.Content className="lr-public-content">
        <PageTransition />
      </Layout.Content>
      <Layout.Footer className="lr-public-footer">
        <span>© {new Date().getFullYear()} LeadRelay</span>
        <a href={LINKS.terms} target="_blank" rel="noreferrer">
          {t('public.terms')}
        </a>
        <a href={LINKS.privacy} target="_blank" rel="noreferrer">
          {t('public.privacy')}
        </a>
      </Layout.Footer>
    </Layout>
  );
}
