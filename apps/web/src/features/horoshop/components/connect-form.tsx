import { type HoroshopAuthBody, horoshopShopUrl } from '@leadrelay/shared';
import { Alert, Button, Form, Input, Segmented, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PermissionGuard } from '../../../components/permission-guard';
import { errorMessage, translateCode } from '../../../lib/errors';
import { applyServerErrors } from '../../../lib/form';
import { useApp } from '../../../lib/use-app';
import { useHoroshopConnectMutation } from '../queries';

type Mode = 'password' | 'token';
interface Values {
  domain: string;
  login?: string;
  password?: string;
  token?: string;
}

/**
 * The shop's address and an API admin's login and password (or a token). Write-only: what was
 * typed is sent once and never shown again; a refusal stays on the form until the next try.
 */
export function ConnectForm({
  integrationId,
  shopUrl,
  onDone,
}: {
  integrationId: string;
  shopUrl: string | null;
  onDone?: () => void;
}) {
  const { t } = useTranslation('horoshop');
  const { message } = useApp();
  const [form] = Form.useForm<Values>();
  const [mode, setMode] = useState<Mode>('password');
  const [failure, setFailure] = useState<string | null>(null);
  const connect = useHoroshopConnectMutation(integrationId);
  // Built on render: the message follows the interface language.
  const required = { required: true, whitespace: true, message: translateCode('REQUIRED') };

  const onFinish = async (values: Values) => {
    setFailure(null);
    const body: HoroshopAuthBody =
      mode === 'password'
        ? { domain: values.domain.trim(), login: values.login?.trim(), password: values.password }
        : { domain: values.domain.trim(), token: values.token?.trim() };
    try {
      await connect.mutateAsync(body);
      form.resetFields(['login', 'password', 'token']);
      void message.success(t('form.connected'));
      onDone?.();
    } catch (err) {
      if (!applyServerErrors(form, err)) setFailure(errorMessage(err));
    }
  };

  return (
    <Form<Values>
      form={form}
      layout="vertical"
      requiredMark={false}
      initialValues={{ domain: shopUrl ? new URL(shopUrl).host : '' }}
      onFinish={onFinish}
      onValuesChange={() => setFailure(null)}
      data-testid="horoshop-connect-form"
    >
      <Form.Item
        name="domain"
        label={t('form.domain')}
        rules={[
          required,
          {
            validator: async (_rule, value: string | undefined) => {
              if (value?.trim() && !horoshopShopUrl(value)) throw new Error(translateCode('HOROSHOP_DOMAIN_INVALID'));
            },
          },
        ]}
      >
        <Input placeholder={t('form.domainPlaceholder')} autoComplete="off" inputMode="url" />
      </Form.Item>
      <Form.Item label={t('form.mode')}>
        <Segmented<Mode>
          value={mode}
          onChange={setMode}
          options={[
            { value: 'password', label: t('form.byPassword') },
            { value: 'token', label: t('form.byToken') },
          ]}
        />
      </Form.Item>
      {mode === 'password' ? (
        <div className="lr-hs-pair">
          <Form.Item name="login" label={t('form.login')} rules={[required]}>
            <Input autoComplete="off" />
          </Form.Item>
          <Form.Item name="password" label={t('form.password')} rules={[required]}>
            <Input.Password autoComplete="new-password" />
          </Form.Item>
        </div>
      ) : (
        <>
          <Form.Item name="token" label={t('form.token')} rules={[required]}>
            <Input.Password autoComplete="off" />
          </Form.Item>
          <Typography.Paragraph type="secondary" className="lr-hint">
            {t('form.tokenHint')}
          </Typography.Paragraph>
        </>
      )}
      {failure && <Alert className="lr-mb" type="error" showIcon role="alert" title={failure} />}
      <PermissionGuard>
        <Button type="primary" htmlType="submit" loading={connect.isPending}>
          {t('form.submit')}
        </Button>
      </PermissionGuard>
    </Form>
  );
}
