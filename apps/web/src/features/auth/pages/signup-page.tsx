import { MailOutlined } from '@ant-design/icons';
import { ZCreateAccountBody } from '@leadrelay/shared';
import { Alert, Button, Form, Result, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { AuthCard } from '../../../components/auth-card';
import { PasswordWithGenerator } from '../../../components/password-with-generator';
import { errorMessage } from '../../../lib/errors';
import { applyServerErrors, zodRule } from '../../../lib/form';
import { currentLocale, localePath } from '../../../lib/locale';
import { readPromo } from '../../../lib/query-behaviours';
import { useApp } from '../../../lib/use-app';
import { authApi } from '../api';
import { EmailField } from '../components/email-field';
import { FacebookButton } from '../components/facebook-button';

type Values = { login: string; password: string; passwordConfirm: string };

export function SignupPage() {
  const { t } = useTranslation('auth');
  const { message } = useApp();
  const [form] = Form.useForm<Values>();
  const [error, setError] = useState<unknown>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const promo = readPromo();

  const onFinish = async (values: Values) => {
    setError(null);
    const body = ZCreateAccountBody.safeParse({ ...values, lang: currentLocale(), promo });
    if (!body.success) return void form.validateFields();
    setSubmitting(true);
    try {
      await authApi.createAccount(body.data);
      setSentTo(body.data.login);
    } catch (err) {
      if (!applyServerErrors(form, err)) setError(err);
    } finally {
      setSubmitting(false);
    }
  };

  const resend = async () => {
    if (!sentTo) return;
    try {
      await authApi.resendConfirmation(sentTo, currentLocale());
      void message.success(t('signup.resent'));
    } catch (err) {
      void message.error(errorMessage(err));
    }
  };

  if (sentTo) {
    return (
      <AuthCard title={t('signup.checkEmailTitle')}>
        <Result
          icon={<MailOutlined aria-hidden style={{ color: 'var(--lr-primary)' }} />}
          subTitle={t('signup.checkEmailText', { login: sentTo })}
          extra={<Button onClick={resend}>{t('signup.resend')}</Button>}
        />
      </AuthCard>
    );
  }

  return (
    <AuthCard title={t('signup.title')} subtitle={t('signup.subtitle')}>
      {error != null && <Alert className="lr-mb" type="error" showIcon role="alert" title={errorMessage(error)} />}
      {promo && <Alert className="lr-mb" type="success" title={t('signup.promo', { promo })} />}
      <Form form={form} layout="vertical" onFinish={onFinish} requiredMark={false} size="large">
        <EmailField />
        <PasswordWithGenerator
          form={form}
          label={t('passwordLabel')}
          confirmLabel={t('passwordConfirm')}
          rules={[zodRule(ZCreateAccountBody.shape.password)]}
        />
        <Button type="primary" htmlType="submit" block loading={submitting}>
          {t('signup.submit')}
        </Button>
      </Form>
      <FacebookButton onError={setError} />
      <Typography.Paragraph className="lr-auth-footer">
        {t('signup.haveAccount')} <Link to={localePath('/signin')}>{t('signup.signinLink')}</Link>
      </Typography.Paragraph>
    </AuthCard>
  );
}
