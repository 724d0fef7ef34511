import { MenuOutlined } from '@ant-design/icons';
import { SIDEBAR_WIDTH } from '@leadrelay/shared';
import { Button, Layout } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Logo } from '../../components/logo';
import { UnsavedChangesPrompt } from '../../components/unsaved-changes-prompt';
import { usePlanLimitPrompt } from '../../lib/plan-limit-prompt';
import { useRealtimeConnection } from '../../lib/realtime-connection';
import { useIsMobile } from '../../lib/use-is-mobile';
import { RouteGate } from '../guards';
import { AccountHeaderRight } from './account-header';
import { PageTransition } from './page-transition';
import { SideMenu } from './side-menu';
import { useDemoReminder } from './use-demo-reminder';

// The mobile menu's drawer loads when it is first opened (issue 17 part 8).
const MenuDrawer = lazy(() => import('./menu-drawer').then((m) => ({ default: m.MenuDrawer })));

/** The account area: collapsible sidebar (a drawer under 768 px), tariff header, user menu. */
export function DefaultLayout() {
  const { t } = useTranslation('layout');
  const mobile = useIsMobile();
  const [collapsed, setCollapsed] = useState(false);
  const [drawerOpen, setDrawerOpen] = useState(false);
  // Stays mounted once opened, so closing it animates.
  const [hasOpenedDrawer, setHasOpenedDrawer] = useState(false);
  useDemoReminder();
  useRealtimeConnection();
  usePlanLimitPrompt();

  return (
    <Layout className="lr-app">
      {!mobile && (
        <Layout.Sider
          collapsible
          collapsed={collapsed}
          onCollapse={setCollapsed}
          width={SIDEBAR_WIDTH}
          className="lr-sider"
        >
          <div className="lr-sider-logo">
            <Logo dark to="/admin" />
          </div>
          <SideMenu />
        </Layout.Sider>
      )}
      {mobile && hasOpenedDrawer && (
        <Suspense fallback={null}>
          <MenuDrawer open={drawerOpen} onClose={() => setDrawerOpen(false)} />
        </Suspense>
      )}
      <Layout>
        <Layout.Header className="lr-app-header">
          {mobile && (
            <Button
              type="text"
              icon={<MenuOutlined aria-hidden />}
              aria-label={t('menu.open')}
              onClick={() => {
                setDrawerOpen(true);
                setHasOpenedDrawer(true);
              }}
            />
          )}
          <AccountHeaderRight compact={mobile} />
        </Layout.Header>
        <Layout.Content className="lr-app-content">
          <RouteGate>
            <PageTransition />
          </RouteGate>
          <UnsavedChangesPrompt />
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
