import { SIDEBAR_WIDTH } from '@leadrelay/shared';
import { Drawer } from 'antd';
import { LanguageSwitcher } from '../../components/language-switcher';
import { Logo } from '../../components/logo';
import { SideMenu } from './side-menu';

/** The side menu as a drawer, under 768 px, with the language switch the phone's header has no room for. */
export function MenuDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Drawer
      open={open}
      onClose={onClose}
      placement="left"
      size={SIDEBAR_WIDTH + 40}
      className="lr-drawer"
      title={<Logo dark to="/admin" />}
      styles={{ body: { padding: 0 } }}
    >
      <SideMenu onNavigate={onClose} />
      <div className="lr-drawer-language">
        <LanguageSwitcher />
      </div>
    </Drawer>
  );
}
