import { type Integration, ZCreateIntegrationBody } from '@leadrelay/shared';
import { Form, Input, Modal } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../lib/errors';
import { zodRule } from '../../../lib/form';
import { HttpError } from '../../../lib/http';
import { useApp } from '../../../lib/use-app';
import { useUspacyAccount, useUspacyConnect } from '../queries';
import type { CreateModalProps } from './crm-list';
import {
  initialConnectValues,
  toConnectBody,
  US_NAME,
  UspacyConnectFields,
  type UspacyConnectValues,
} from './uspacy-connect-fields';

export type UspacyCreateValues = UspacyConnectValues & { name: string };

/** A new Uspacy connection: its name and how it connects. */
export function UspacyCreateModal({ open, busy, onCancel, onSubmit }: CreateModalProps<UspacyCreateValues>) {
  const { t } = useTranslation('crm');
  const [form] = Form.useForm<UspacyCreateValues>();
  return (
    <Modal
      open={open}
      title={t('create.title', { crm: US_NAME })}
      okText={t('create.saveToken')}
      cancelText={t('cancel')}
      onOk={() => form.submit()}
      onCancel={onCancel}
      confirmLoading={busy}
      destroyOnHidden
      forceRender
    >
      <Form<UspacyCreateValues>
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={{ name: US_NAME, ...initialConnectValues }}
        onFinish={(v) => onSubmit({ ...v, name: v.name.trim() })}
      >
        <Form.Item name="name" label={t('create.name')} rules={[zodRule(ZCreateIntegrationBody.shape.name)]}>
          <Input maxLength={100} />
        </Form.Item>
        <UspacyConnectFields />
      </Form>
    </Modal>
  );
}

/** Connects an existing integration again (a new webhook, or signing in after Uspacy ended the session). */
export function UspacyReconnectModal({
  integration,
  open,
  onClose,
}: {
  integration: Integration;
  open: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation('crm');
  const { message } = useApp();
  const [form] = Form.useForm<UspacyConnectValues>();
  const connect = useUspacyConnect();
  const account = useUspacyAccount(integration).data;
  // Opened again the way it is connected now, portal and e-mail filled in (never the secrets).
  useEffect(() => {
    if (!open || !account?.connected) return;
    form.setFieldsValue({
      mode: account.mode ?? 'webhook',
      ...(account.mode === 'password' ? { portal: account.portal, email: account.email } : {}),
    });
  }, [open, account, form]);

  const onFinish = async (values: UspacyConnectValues) => {
    try {
      await connect.mutateAsync(toConnectBody(integration._id, values));
      void message.success(t('connection.done', { crm: US_NAME }));
      onClose();
    } catch (err) {
      // A refused address or credentials are shown at their field; anything else as a message.
      const field = err instanceof HttpError ? err.errors[0]?.field : undefined;
      if (field === 'portal' || field === 'webhookUrl') form.setFields([{ name: field, errors: [errorMessage(err)] }]);
      else void message.error(errorMessage(err));
    }
  };

  return (
    <Modal
      open={open}
      title={t('create.title', { crm: US_NAME })}
      okText={t('create.saveToken')}
      cancelText={t('cancel')}
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={connect.isPending}
      destroyOnHidden
      forceRender
    >
      <Form<UspacyConnectValues>
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={initialConnectValues}
        onFinish={onFinish}
      >
        <UspacyConnectFields />
      </Form>
    </Modal>
  );
}
