import { Button, Card, Result, Spin } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ServerError } from '../../../components/server-error';
import { setToken } from '../../../lib/auth';
import { localePath } from '../../../lib/locale';
import { queryClient } from '../../../lib/query-client';
import { authApi } from '../api';

/**
 * /enter?code=…: "enter as a user". The one-time code is exchanged for the entered session, which
 * works only in the browser of the staff member who asked for it; then /admin. Old links that
 * carried a session token no longer sign in. Without either, /signin.
 */
export function EnterPage() {
  const { t } = useTranslation('auth');
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const code = params.get('code');
  const isLegacy = !code && params.has('sessionToken');
  const [error, setError] = useState<unknown>(null);
  const started = useRef(false);

  useEffect(() => {
    if (isLegacy) return;
    if (!code) {
      void navigate(localePath('/signin'), { replace: true });
      return;
    }
    // Once: the code works a single time (StrictMode runs effects twice in development).
    if (started.current) return;
    started.current = true;
    authApi
      .enter(code)
      .then(({ accessToken }) => {
        // Nothing of the previous account's data may show in the entered one.
        queryClient.clear();
        setToken(accessToken);
        void navigate(localePath('/admin'), { replace: true });
      })
      .catch(setError);
  }, [code, isLegacy, navigate]);

  const toSignin = (
    <Link to={localePath('/signin')}>
      <Button type="primary">{t('enter.toSignin')}</Button>
    </Link>
  );
  return (
    <Card className="lr-narrow-card">
      {isLegacy ? (
        <Result
          status="warning"
          title={t('enter.legacyTitle')}
          subTitle={t('enter.legacyText')}
          extra={toSignin}
          data-testid="enter-legacy"
        />
      ) : error ? (
        <Result
          status="error"
          title={t('enter.failed')}
          subTitle={<ServerError error={error} />}
          extra={toSignin}
          data-testid="enter-failed"
        />
      ) : (
        <Result icon={<Spin size="large" />} title={t('enter.entering')} />
      )}
    </Card>
  );
}
