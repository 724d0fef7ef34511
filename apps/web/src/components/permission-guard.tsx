import { daysLeft } from '@leadrelay/shared';
import type { ReactNode, SyntheticEvent } from 'react';
import { useMe } from '../lib/current-user';

function block(e: SyntheticEvent) {
  e.preventDefault();
  e.stopPropagation();
}

/**
 * Spec section 4, expired block: when days left is 0 or below, clicks on the wrapped elements are
 * stopped in the capture phase and the element is dimmed to half opacity, for every role.
 */
export function PermissionGuard({ children, expired }: { children: ReactNode; expired?: boolean }) {
  const { data: user } = useMe();
  const left = user ? daysLeft(user.expDate) : null;
  const blocked = expired ?? (left !== null && left <= 0);
  if (!blocked) return children;
  return (
    <span
      className="lr-permission-guard"
      data-blocked="true"
      aria-disabled="true"
      style={{ opacity: 0.5, cursor: 'not-allowed', display: 'inline-block' }}
      onClickCapture={block}
      onSubmitCapture={block}
      onKeyDownCapture={(e) => (e.key === 'Enter' || e.key === ' ') && block(e)}
    >
      {children}
    </span>
  );
}
