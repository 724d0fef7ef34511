import { ZCreateClientBody } from '@leadrelay/shared';
import { Alert, Form, Input, Modal, Select, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../lib/errors';
import { zodRule } from '../../../lib/form';
import { useApp } from '../../../lib/use-app';
import { useCreateClientMutation } from '../queries';

interface Values {
  login: string;
  role: 'client' | 'admin' | 'support';
  lang: 'uk' | 'en';
}

/** A new account with a generated password, shown here once. Staff roles: the owner only. */
export function CreateClientModal({
  open,
  isOwner,
  onClose,
}: {
  open: boolean;
  isOwner: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation('clients');
  const { message } = useApp();
  const [form] = Form.useForm<Values>();
  const create = useCreateClientMutation();
  const [created, setCreated] = useState<{ login: string; password: string } | null>(null);
  const close = () => {
    setCreated(null);
    form.resetFields();
    onClose();
  };
  const submit = async (values: Values) => {
    try {
      const res = await create.mutateAsync(values);
      setCreated({ login: res.user.login, password: res.password });
    } catch (err) {
      void message.error(errorMessage(err));
    }
  };
  const roles = isOwner ? (['client', 'support', 'admin'] as const) : (['client'] as const);
  return (
    <Modal
      open={open}
      title={t('create.title')}
      onCancel={close}
      onOk={created ? close : () => form.submit()}
      okText={created ? t('create.done') : t('create.submit')}
      cancelButtonProps={{ style: created ? { display: 'none' } : undefined }}
      confirmLoading={create.isPending}
      destroyOnHidden
    >
      {created ? (
        <div data-testid="created-password">
          <Alert type="success" showIcon title={t('create.created', { login: created.login })} />
          <Typography.Paragraph className="lr-created-password">
            {t('create.password')}{' '}
            <Typography.Text code copyable strong>
              {created.password}
            </Typography.Text>
          </Typography.Paragraph>
          <Typography.Text type="secondary">{t('create.once')}</Typography.Text>
        </div>
      ) : (
        <Form form={form} layout="vertical" initialValues={{ role: 'client', lang: 'uk' }} onFinish={submit}>
          <Form.Item
            name="login"
            label={t('create.login')}
            rules={[{ required: true, message: t('create.loginRequired') }, zodRule(ZCreateClientBody.shape.login)]}
          >
            <Input type="email" autoComplete="off" />
          </Form.Item>
          <Form.Item name="role" label={t('create.role')}>
            <Select options={roles.map((r) => ({ value: r, label: t(`roles.${r}`) }))} />
          </Form.Item>
          <Form.Item name="lang" label={t('create.lang')}>
            <Select
              options={[
                { value: 'uk', label: 'Українська' },
                { value: 'en', label: 'English' },
              ]}
            />
          </Form.Item>
        </Form>
      )}
    </Modal>
  );
}
