import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { FullPageSpinner } from '../../../components/full-page-spinner';
import { signOut } from '../../../lib/current-user';
import { localePath } from '../../../lib/locale';

/** /admin/logout: ends the session on the server, then /signin. */
export function LogoutPage() {
  const navigate = useNavigate();
  useEffect(() => {
    void signOut().then(() => navigate(localePath('/signin'), { replace: true }));
  }, [navigate]);
  return <FullPageSpinner inline />;
}
