import { Alert, Button, Form, Input } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { AuthCard } from '../../../components/auth-card';
import { setToken } from '../../../lib/auth';
import { errorMessage } from '../../../lib/errors';
import { applyServerErrors, zodRule } from '../../../lib/form';
import { HttpError } from '../../../lib/http';
import { currentLocale, localePath } from '../../../lib/locale';
import { useApp } from '../../../lib/use-app';
import { authApi } from '../api';
import { EmailField } from '../components/email-field';
import { FacebookButton, useFacebookReturn } from '../components/facebook-button';
import { loadAuthRules } from '../load-rules';

type Values = { login: string; password: string };

const passwordRule = zodRule(() => loadAuthRules().then((rules) => rules.password));

const NOTICES = {
  session: { type: 'warning', key: 'signin.sessionExpired' },
  'password-changed': { type: 'success', key: 'signin.passwordChanged' },
  'account-removed': { type: 'info', key: 'signin.accountRemoved' },
} as const;

export function SigninPage() {
  const { t } = useTranslation('auth');
  const { message } = useApp();
  const [form] = Form.useForm<Values>();
  const [params] = useSearchParams();
  const [error, setError] = useState<unknown>(null);
  const [submitting, setSubmitting] = useState(false);
  const notice = NOTICES[params.get('message') as keyof typeof NOTICES];
  const isFacebookReturn = useFacebookReturn(setError);

  const onFinish = async (values: Values) => {
    setError(null);
    setSubmitting(true);
    try {
      const { ZLoginBody } = await loadAuthRules();
      const { accessToken } = await authApi.login(ZLoginBody.parse(values));
      setToken(accessToken); // the guest guard then moves on to /admin or the saved redirect
    } catch (err) {
      if (!applyServerErrors(form, err)) setError(err);
      setSubmitting(false);
    }
  };

  const resend = async () => {
    try {
      await authApi.resendConfirmation(form.getFieldValue('login'), currentLocale());
      void message.success(t('signin.resent'));
    } catch (err) {
      void message.error(errorMessage(err));
    }
  };

  const notConfirmed = error instanceof HttpError && error.code === 'EMAIL_NOT_CONFIRMED';

  return (
    <AuthCard title={t('signin.title')} subtitle={t('signin.subtitle')}>
      {notice && !error && <Alert className="lr-mb" type={notice.type} showIcon title={t(notice.key)} />}
      {isFacebookReturn && <Alert className="lr-mb" type="info" showIcon title={t('facebook.signingIn')} />}
      {error != null && (
        <Alert
          className="lr-mb"
          type="error"
          showIcon
          role="alert"
          title={errorMessage(error)}
          description={notConfirmed ? t('signin.notConfirmed') : undefined}
          action={
            notConfirmed ? (
              <Button size="small" onClick={resend}>
                {t('signin.resend')}
              </Button>
            ) : undefined
          }
        />
      )}
      <Form form={form} layout="vertical" onFinish={onFinish} requiredMark={false} size="large">
        <EmailField />
        <Form.Item
          name="password"
          label={t('passwordLabel')}
          rules={[passwordRule]}
          validateTrigger="onBlur"
          extra={
            <Link to={localePath('/recovery')} className="lr-forgot">
              {t('signin.forgot')}
            </Link>
          }
        >
          <Input.Password autoComplete="current-password" />
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={submitting}>
          {t('signin.submit')}
        </Button>
      </Form>
      <FacebookButton onError={setError} />
      <p className="lr-auth-footer">
        {t('signin.noAccount')} <Link to={localePath('/signup')}>{t('signin.signupLink')}</Link>
      </p>
    </AuthCard>
  );
}
