import { MailOutlined } from '@ant-design/icons';
import { ZLoginOnlyBody } from '@leadrelay/shared';
import { Alert, Button, Form, Result } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { AuthCard } from '../../../components/auth-card';
import { errorMessage } from '../../../lib/errors';
import { currentLocale, localePath } from '../../../lib/locale';
import { authApi } from '../api';
import { EmailField } from '../components/email-field';

export function RecoveryPage() {
  const { t } = useTranslation('auth');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [submitting, setSubmitting] = useState(false);

  const onFinish = async ({ login }: { login: string }) => {
    setError(null);
    setSubmitting(true);
    const email = ZLoginOnlyBody.shape.login.parse(login);
    try {
      await authApi.forgotPassword(email, currentLocale());
      setSentTo(email); // the same answer whether or not the account exists
    } catch (err) {
      setError(err);
    } finally {
      setSubmitting(false);
    }
  };

  const back = <Link to={localePath('/signin')}>{t('recovery.backToSignin')}</Link>;

  if (sentTo) {
    return (
      <AuthCard title={t('recovery.sentTitle')}>
        <Result
          icon={<MailOutlined aria-hidden style={{ color: 'var(--lr-primary)' }} />}
          subTitle={t('recovery.sentText', { login: sentTo })}
          extra={back}
        />
      </AuthCard>
    );
  }
  return (
    <AuthCard title={t('recovery.title')} subtitle={t('recovery.subtitle')}>
      {error != null && <Alert className="lr-mb" type="error" showIcon role="alert" title={errorMessage(error)} />}
      <Form layout="vertical" onFinish={onFinish} requiredMark={false} size="large">
        <EmailField />
        <Button type="primary" htmlType="submit" block loading={submitting}>
          {t('recovery.submit')}
        </Button>
      </Form>
      <div className="lr-auth-footer">{back}</div>
    </AuthCard>
  );
}
