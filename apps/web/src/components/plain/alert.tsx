import type { ReactNode } from 'react';
import { Icon } from './icons';
import './plain.css';

/** An antd-like alert without antd: a message with its icon, an optional description and action. */
export function Alert({
  type,
  title,
  description,
  action,
  className,
  role,
}: {
  type: 'success' | 'info' | 'warning' | 'error';
  title: ReactNode;
  description?: ReactNode;
  action?: ReactNode;
  className?: string;
  role?: 'alert' | 'status';
}) {
  return (
    <div className={['lr-alert', `lr-alert-${type}`, className].filter(Boolean).join(' ')} role={role}>
      <Icon name={type} className="lr-alert-icon" />
      <div className="lr-alert-body">
        <p className="lr-alert-title">{title}</p>
        {description && <p className="lr-alert-description">{description}</p>}
      </div>
      {action && <div className="lr-alert-action">{action}</div>}
    </div>
  );
}
