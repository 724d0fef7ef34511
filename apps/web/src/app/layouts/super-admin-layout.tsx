import { isPrivileged } from '@leadrelay/shared';
import { Layout, Menu, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { FullPageSpinner } from '../../components/full-page-spinner';
import { LanguageSwitcher } from '../../components/language-switcher';
import { Logo } from '../../components/logo';
import { useMe } from '../../lib/current-user';
import { localePath, stripLocale } from '../../lib/locale';
import { useRealtimeConnection } from '../../lib/realtime-connection';
import { useIsMobile } from '../../lib/use-is-mobile';
import { RouteGate } from '../guards';
import { UserMenu } from './account-header';
import { PageTransition } from './page-transition';

const TABS = [
  '/admin/super/clients',
  '/admin/super/language',
  '/admin/super/integrations',
  '/admin/super/tariffs',
  '/admin/super/audit',
];

/** Super-admin: owner or privileged roles only (others → /admin); tabs, version label, top menu. */
export function SuperAdminLayout() {
  const { t } = useTranslation('layout');
  const navigate = useNavigate();
  const mobile = useIsMobile();
  const path = stripLocale(useLocation().pathname);
  const { data: user, isLoading } = useMe();
  useRealtimeConnection();
  const selected = TABS.find((p) => path === p || path.startsWith(`${p}/`)) ?? '/admin/super';
  if (isLoading) return <FullPageSpinner />;
  if (user && !isPrivileged(user.role)) return <Navigate to={localePath('/admin')} replace />;
  const items = [
    { key: '/admin/super', label: t('super.errors') },
    { key: '/admin/super/clients', label: t('super.clients') },
    { key: '/admin/super/language', label: t('super.language') },
    { key: '/admin/super/integrations', label: t('super.integrations') },
    ...(user?.role === 'owner' ? [{ key: '/admin/super/tariffs', label: t('super.tariffs') }] : []),
    { key: '/admin/super/audit', label: t('super.audit') },
  ];
  const menu = (
    <Menu
      mode={mobile ? 'horizontal' : 'inline'}
      // On a phone the tabs wrap onto a second line rather than fold into "…", where the open one hid.
      disabledOverflow={mobile}
      selectedKeys={[selected]}
      items={items}
      onClick={({ key }) => void navigate(localePath(key))}
    />
  );
  return (
    <Layout className="lr-app">
      <Layout.Header className="lr-app-header lr-super-header">
        <div className="lr-super-brand">
          <Logo to="/admin/super" />
          <Typography.Text type="secondary">{t('super.title')}</Typography.Text>
        </div>
        <div className="lr-header-right">
          <Link to={localePath('/admin')}>{t('super.backToAccount')}</Link>
          {!mobile && <LanguageSwitcher size="small" />}
          <UserMenu compact={mobile} />
        </div>
      </Layout.Header>
      {mobile && menu}
      {mobile && (
        <div className="lr-super-language">
          <LanguageSwitcher size="small" />
        </div>
      )}
      <Layout>
        {!mobile && (
          <Layout.Sider theme="light" width={200} className="lr-super-sider">
            {menu}
            <div className="lr-version">{t('super.version', { version: __APP_VERSION__ })}</div>
          </Layout.Sider>
        )}
        <Layout.Content className="lr-app-content">
          <RouteGate>
            <PageTransition />
          </RouteGate>
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
