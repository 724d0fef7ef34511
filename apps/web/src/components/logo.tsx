import { Link } from 'react-router';
import { localePath } from '../lib/locale';

export function Logo({ dark = false, to = '/' }: { dark?: boolean; to?: string }) {
  return (
    <Link to={localePath(to)} className={dark ? 'lr-logo lr-logo-dark' : 'lr-logo'}>
      <span className="lr-logo-mark" aria-hidden="true">
        L
      </span>
      <span className="lr-logo-text">LeadRelay</span>
    </Link>
  );
}
