import { Outlet } from 'react-router';
import { Logo } from '../../components/logo';

export function ErrorLayout() {
  return (
    <div className="lr-center lr-error-layout">
      <Logo />
      <Outlet />
    </div>
  );
}
