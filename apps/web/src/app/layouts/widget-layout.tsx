import { Outlet } from 'react-router';

/** Embedded widgets: no chrome at all. */
export function WidgetLayout() {
  return (
    <div className="lr-widget">
      <Outlet />
    </div>
  );
}
