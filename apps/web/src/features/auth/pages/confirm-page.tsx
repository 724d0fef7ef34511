import { Button, Card, Result, Spin } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { ServerError } from '../../../components/server-error';
import { setToken } from '../../../lib/auth';
import { HttpError } from '../../../lib/http';
import { localePath } from '../../../lib/locale';
import { authApi } from '../api';

/** /confirm?token=…: confirms the e-mail, signs in, then the guest guard goes to /admin. */
export function ConfirmPage() {
  const { t } = useTranslation('auth');
  const [params] = useSearchParams();
  const token = params.get('token');
  const [error, setError] = useState<unknown>(token ? null : new HttpError(400, { code: 'TOKEN_INVALID' }));
  const started = useRef(false);

  useEffect(() => {
    if (!token || started.current) return;
    started.current = true;
    authApi
      .confirmEmail(token)
      .then(({ accessToken }) => setToken(accessToken))
      .catch(setError);
  }, [token]);

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
