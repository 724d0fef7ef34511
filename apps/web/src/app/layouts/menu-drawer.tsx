import { SIDEBAR_WIDTH } from '@leadrelay/shared';
import { Drawer } from 'antd';
import { Logo } from '../../components/logo';
import { SideMenu } from './side-menu';

/** The side menu as a drawer, under 768 px. */
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
    </Drawer>
  );
}
