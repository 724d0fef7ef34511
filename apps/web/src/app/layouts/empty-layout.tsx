import { Outlet } from 'react-router';

/** Bare centred page. */
export function EmptyLayout() {
  return (
    <div className="lr-center lr-empty">
      <Outlet />
    </div>
  );
}
