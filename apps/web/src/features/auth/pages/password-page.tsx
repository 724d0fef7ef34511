import { ZConfirmPasswordBody } from '@leadrelay/shared';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Form, Input, Spin, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { AuthCard } from '../../../components/auth-card';
import { PasswordWithGenerator } from '../../../components/password-with-generator';
import { errorMessage } from '../../../lib/errors';
import { applyServerErrors, zodRule } from '../../../lib/form';
import { localePath } from '../../../lib/locale';
import { authApi } from '../api';

/** A pasted reset link or a bare token → the token. */
export function tokenFromInput(input: string): string {
  const trimmed = input.trim();
  const match = /\/password\/([^/?#\s]+)/.exec(trimmed);
  return match?.[1] ?? trimmed;
}

function AskForToken() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  return (
    <AuthCard title={t('password.title')} subtitle={t('password.noTokenText')}>
      <Form
        layout="vertical"
        requiredMark={false}
        size="large"
        onFinish={({ link }: { link: string }) =>
          void navigate(localePath(`/password/${encodeURIComponent(tokenFromInput(link))}`))
        }
      >
        <Form.Item name="link" label={t('password.linkOrToken')} rules={[{ required: true, whitespace: true }]}>
          <Input />
        </Form.Item>
        <Button type="primary" htmlType="submit" block>
          {t('password.continue')}
        </Button>
      </Form>
      <div className="lr-auth-footer">
        <Link to={localePath('/recovery')}>{t('password.requestNew')}</Link>
      </div>
    </AuthCard>
  );
}

type Values = { password: string; passwordConfirm: string };

function NewPasswordForm({ token }: { token: string }) {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const [form] = Form.useForm<Values>();
  const [error, setError] = useState<unknown>(null);
  const [submitting, setSubmitting] = useState(false);
  const check = useQuery({
    queryKey: ['reset-token', token],
    queryFn: () => authApi.checkResetToken(token),
    retry: false,
  });

  const onFinish = async (values: Values) => {
    setError(null);
    setSubmitting(true);
    try {
      await authApi.confirmPassword(ZConfirmPasswordBody.parse({ ...values, token }));
      await navigate(localePath('/signin?message=password-changed'), { replace: true });
    } catch (err) {
      if (!applyServerErrors(form, err)) setError(err);
      setSubmitting(false);
    }
  };

  if (check.isPending) {
    return (
      <AuthCard title={t('password.title')} subtitle={t('password.checking')}>
        <Spin />
      </AuthCard>
    );
  }
  if (check.isError) {
    return (
      <AuthCard title={t('password.title')}>
        <Alert className="lr-mb" type="error" showIcon role="alert" title={errorMessage(check.error)} />
        <Link to={localePath('/recovery')}>
          <Button type="primary" block size="large">
            {t('password.requestNew')}
          </Button>
        </Link>
      </AuthCard>
    );
  }
  return (
    <AuthCard
      title={t('password.title')}
      subtitle={<Typography.Text strong>{t('password.for', { login: check.data.login })}</Typography.Text>}
    >
      {error != null && <Alert className="lr-mb" type="error" showIcon role="alert" title={errorMessage(error)} />}
      <Form form={form} layout="vertical" onFinish={onFinish} requiredMark={false} size="large">
        <PasswordWithGenerator
          form={form}
          label={t('password.newPassword')}
          confirmLabel={t('passwordConfirm')}
          rules={[zodRule(ZConfirmPasswordBody.shape.password)]}
        />
        <Button type="primary" htmlType="submit" block loading={submitting}>
          {t('password.submit')}
        </Button>
      </Form>
    </AuthCard>
  );
}

export function PasswordPage() {
  const { token } = useParams();
  return token ? <NewPasswordForm token={token} /> : <AskForToken />;
}
