import { useEffect } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { FullPageSpinner } from '../../../components/full-page-spinner';
import { setToken } from '../../../lib/auth';
import { localePath } from '../../../lib/locale';

/** /enter?sessionToken=…: stores the token and goes to /admin; without it, /signin. */
export function EnterPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const token = params.get('sessionToken');
  useEffect(() => {
    if (token) setToken(token);
    void navigate(localePath(token ? '/admin' : '/signin'), { replace: true });
  }, [token, navigate]);
  return <FullPageSpinner />;
}
