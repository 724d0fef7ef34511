import { Button, Card, Result, Spin } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { ServerError } from '../../../components/server-error';
import { setToken } from '../../../lib/auth';
import { HttpError } from '../../../lib/http';
import { localePath } from '../../../lib/locale';
import { authApi } from '../api';

/**
 * /confirm?token=…: confirms the e-mail. In the browser that signed up it also signs in, and the
 * guest guard goes on to /admin; opened anywhere else it only confirms (ADR 001: a link must not
 * sign a browser into an account someone else controls), so the page asks to sign in.
 */
export function ConfirmPage() {
  const { t } = useTranslation('auth');
  const [params] = useSearchParams();
  const token = params.get('token');
  const [error, setError] = useState<unknown>(token ? null : new HttpError(400, { code: 'TOKEN_INVALID' }));
  const [confirmedLogin, setConfirmedLogin] = useState<string | null>(null);
  const started = useRef(false);

  useEffect(() => {
    if (!token || started.current) return;
    started.current = true;
    authApi
      .confirmEmail(token)
      .then((result) => ('accessToken' in result ? setToken(result.accessToken) : setConfirmedLogin(result.login)))
      .catch(setError);
  }, [token]);

  if (confirmedLogin !== null) {
    return (
      <Card className="lr-narrow-card">
        <Result
          status="success"
          title={t('confirm.confirmedTitle')}
          subTitle={t('confirm.confirmedText')}
          extra={
            <Link to={`${localePath('/signin')}?${new URLSearchParams({ login: confirmedLogin })}`}>
              <Button type="primary">{t('confirm.signin')}</Button>
            </Link>
          }
        />
      </Card>
    );
  }

  return (
    <Card className="lr-narrow-card">
      {error ? (
        <Result
          status="error"
          title={t('confirm.failed')}
          subTitle={<ServerError error={error} />}
          extra={
            <Link to={localePath('/signin')}>
              <Button type="primary">{t('confirm.toSignin')}</Button>
            </Link>
          }
        />
      ) : (
        <Result icon={<Spin size="large" />} title={t('confirm.title')} subTitle={t('confirm.checking')} />
      )}
    </Card>
  );
}
