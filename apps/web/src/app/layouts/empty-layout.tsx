import { Alert } from 'antd';
import { Outlet } from 'react-router';
import { errorMessage } from '../../lib/errors';

/** Bare centred page; `ServerError` shows the message of a failed response. */
export function EmptyLayout() {
  return (
    <div className="lr-center lr-empty">
      <Outlet />
    </div>
  );
}

export function ServerError({ error }: { error: unknown }) {
  return <Alert type="error" showIcon title={errorMessage(error)} />;
}
