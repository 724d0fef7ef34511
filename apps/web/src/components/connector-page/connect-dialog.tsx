import type { ConnectMethod, CredentialsMethod } from '@leadrelay/connectors/manifest';
import { type Integration, ZCreateIntegrationBody } from '@leadrelay/shared';
import { Form, type FormInstance, Input, Modal, Radio, Spin, Typography } from 'antd';
import { type ReactNode, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../lib/errors';
import { zodRule } from '../../lib/form';
import { useApp } from '../../lib/use-app';
import { useCredentialsConnect } from './connect-flow';
import { fieldsOf, initialValues, type Values } from './field-values';
import { FormItems } from './fields';
import { serverFieldErrors } from './server-errors';
import type { Say } from './words';

type Methods = readonly ConnectMethod<string>[];

/** What a new connection is doing: being made, on its way to the provider, being checked with the credentials. */
export type ConnectStep = 'creating' | 'opening' | 'connecting';

/** What the new connection's dialog gives back: its name, the way chosen and that way's values. */
export interface NewConnection {
  name: string;
  method: ConnectMethod<string>;
  values: Values;
}

const methodValues = (methods: Methods, say: Say): Values =>
  Object.fromEntries(
    methods.flatMap((m) => (m.kind === 'credentials' ? Object.entries(initialValues(fieldsOf(m.items), {}, say)) : [])),
  );

/** A connect dialog: its form is sent by the OK button; it forgets what was typed once closed. */
function DialogFrame({
  open,
  title,
  okText,
  form,
  onCancel,
  busy,
  status,
  children,
}: {
  open: boolean;
  title: string;
  okText: string;
  form: FormInstance;
  onCancel: () => void;
  busy: boolean;
  /** What is being done since the click, said beside the busy button. */
  status?: string;
  children: ReactNode;
}) {
  const { t } = useTranslation('crm');
  return (
    <Modal
      open={open}
      title={title}
      okText={okText}
      cancelText={t('cancel')}
      onOk={() => form.submit()}
      onCancel={onCancel}
      confirmLoading={busy}
      destroyOnHidden
      forceRender
    >
      {children}
      {status && (
        <Typography.Paragraph role="status" className="lr-connect-status" data-testid="connect-status">
          <Spin size="small" /> {status}
        </Typography.Paragraph>
      )}
    </Modal>
  );
}

/** The button of a way: on to the provider ("Continue to …"), or "Connect" with the credentials typed in. */
function useOkText(crm: string) {
  const { t } = useTranslation('crm');
  return (method: ConnectMethod<string> | undefined) =>
    method?.kind === 'oauth' ? t('create.go', { crm }) : t('create.saveToken');
}

/** A new connection: its name and how it connects (a choice when the connector has several ways). */
export function NewConnectionDialog({
  crm,
  defaultName,
  title,
  methods,
  say,
  open,
  busy,
  step,
  onCancel,
  onSubmit,
}: {
  crm: string;
  /** The new connection's name to start with (the brand's, or the manifest's `list.defaultName`). */
  defaultName: string;
  title: string;
  methods: Methods;
  say: Say;
  open: boolean;
  busy: boolean;
  /** What the new connection is doing since the click (creating it, opening the provider, connecting). */
  step?: ConnectStep | null;
  onCancel: () => void;
  onSubmit: (connection: NewConnection) => void;
}) {
  const { t } = useTranslation('crm');
  const okText = useOkText(crm);
  const [form] = Form.useForm<Values>();
  const chosen = Form.useWatch<string | undefined>('method', form);
  const method = methods.find((m) => m.key === chosen) ?? methods[0];
  return (
    <DialogFrame
      open={open}
      title={title}
      okText={okText(method)}
      form={form}
      onCancel={onCancel}
      busy={busy}
      status={step ? t(`create.steps.${step}`, { crm }) : undefined}
    >
      <Form<Values>
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={{ name: defaultName, method: methods[0]?.key, ...methodValues(methods, say) }}
        onFinish={(v) => method && onSubmit({ name: String(v.name ?? '').trim(), method, values: v })}
      >
        <Form.Item name="name" label={t('create.name')} rules={[zodRule(ZCreateIntegrationBody.shape.name)]}>
          <Input maxLength={100} />
        </Form.Item>
        {methods.length > 1 && (
          <Form.Item name="method" label={t('create.method')}>
            <Radio.Group
              className="lr-crm-radios"
              options={methods.map((m) => ({ value: m.key, label: m.label ? say(m.label) : m.key }))}
            />
          </Form.Item>
        )}
        {method?.kind === 'credentials' && <FormItems items={method.items} say={say} />}
        {method?.kind === 'oauth' && (
          <Typography.Paragraph type="secondary" className="lr-hint">
            {method.tab ? t('create.oauthHintTab', { crm }) : t('create.oauthHint', { crm })}
          </Typography.Paragraph>
        )}
      </Form>
    </DialogFrame>
  );
}

/**
 * Connects an existing integration again with a credentials way (a new webhook, or signing in after
 * the service ended the session); it opens with `prefill`, what the account says of the connection
 * now (never a secret). A refusal naming a field shows at that field.
 */
export function ReconnectDialog({
  integration,
  crm,
  title,
  method,
  say,
  prefill,
  open,
  onClose,
}: {
  integration: Integration;
  crm: string;
  title: string;
  method: CredentialsMethod<string>;
  say: Say;
  prefill?: Values;
  open: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation('crm');
  const { message } = useApp();
  const [form] = Form.useForm<Values>();
  const connect = useCredentialsConnect();
  const fields = fieldsOf(method.items);
  useEffect(() => {
    if (open && prefill) form.setFieldsValue(prefill);
  }, [open, prefill, form]);

  const onFinish = async (values: Values) => {
    try {
      await connect.mutateAsync({ id: integration._id, method, values });
      void message.success(t('connection.done', { crm }));
      onClose();
    } catch (err) {
      const found = serverFieldErrors(err, fields);
      if (found.fields.length) form.setFields(found.fields as never);
      else void message.error(errorMessage(err));
    }
  };

  return (
    <DialogFrame
      open={open}
      title={title}
      okText={t('create.saveToken')}
      form={form}
      onCancel={onClose}
      busy={connect.isPending}
    >
      <Form<Values>
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={initialValues(fields, {}, say)}
        onFinish={onFinish}
      >
        <FormItems items={method.items} say={say} />
      </Form>
    </DialogFrame>
  );
}
