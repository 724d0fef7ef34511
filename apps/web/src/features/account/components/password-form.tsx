import { ZUpdatePasswordBody } from '@leadrelay/shared';
import { Button, Card, Form, Input } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PasswordWithGenerator } from '../../../components/password-with-generator';
import { errorMessage } from '../../../lib/errors';
import { applyServerErrors, zodRule } from '../../../lib/form';
import { useApp } from '../../../lib/use-app';
import { accountApi } from '../api';

type Values = { oldPassword: string; password: string; passwordConfirm: string };

export function PasswordForm() {
  const { t } = useTranslation('account');
  const { message } = useApp();
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);

  const onFinish = async (values: Values) => {
    setSaving(true);
    try {
      await accountApi.updatePassword(ZUpdatePasswordBody.parse(values));
      form.resetFields();
      void message.success(t('password.changed'));
    } catch (err) {
      if (err instanceof Error && 'code' in err && err.code === 'WRONG_PASSWORD') {
        form.setFields([{ name: 'oldPassword', errors: [errorMessage(err)] }]);
      } else if (!applyServerErrors(form, err)) void message.error(errorMessage(err));
    } finally {
      setSaving(false);
    }
  };

  const { shape } = ZUpdatePasswordBody;
  return (
    <Card title={t('password.title')}>
      <Form form={form} layout="vertical" onFinish={onFinish}>
        <Form.Item name="oldPassword" label={t('password.old')} rules={[zodRule(shape.oldPassword)]}>
          <Input.Password autoComplete="current-password" />
        </Form.Item>
        <PasswordWithGenerator
          form={form}
          label={t('password.new')}
          confirmLabel={t('password.confirm')}
          rules={[zodRule(shape.password)]}
        />
        <Button type="primary" htmlType="submit" loading={saving}>
          {t('password.submit')}
        </Button>
      </Form>
    </Card>
  );
}
