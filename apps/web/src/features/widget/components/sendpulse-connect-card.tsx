import { type Integration, SENDPULSE_CHANNELS, ZSendpulseAuth, ZSendpulseSettings } from '@leadrelay/shared';
import { Alert, Button, Card, Form, Input, Select, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../lib/errors';
import { applyServerErrors } from '../../../lib/form';
import { useConnectMutation } from '../../../lib/integrations/queries';
import { reasonText } from '../../../lib/integrations/reasons';
import { useApp } from '../../../lib/use-app';
import type { ChannelKey } from './contact-list';

interface Values {
  clientId?: string;
  clientSecret?: string;
  channel: string;
  botId?: string;
  matchVariable: string;
}

/** The SendPulse app's ID and Secret and the chatbot the widget uses; the secret is never shown back. */
export function SendpulseConnectCard({ integration }: { integration: Integration }) {
  const { t } = useTranslation('widget');
  const { message } = useApp();
  const [form] = Form.useForm<Values>();
  const connect = useConnectMutation(integration._id);
  const settings = ZSendpulseSettings.safeParse(integration.settings ?? {});
  const initial = settings.success ? settings.data : { channel: 'telegram' as const, matchVariable: 'phone' };

  const onFinish = (v: Values) => {
    const typed = Boolean(v.clientId?.trim() || v.clientSecret?.trim());
    const auth = typed ? ZSendpulseAuth.safeParse({ clientId: v.clientId, clientSecret: v.clientSecret }) : null;
    if (auth && !auth.success) {
      form.setFields([{ name: v.clientId?.trim() ? 'clientSecret' : 'clientId', errors: [t('admin.connectionText')] }]);
      return;
    }
    const botId = v.botId?.trim();
    connect.mutate(
      {
        ...(auth?.success ? { auth: auth.data } : {}),
        settings: {
          ...(integration.settings ?? {}),
          channel: v.channel,
          matchVariable: v.matchVariable.trim() || 'phone',
          botId: botId || undefined,
        },
      },
      {
        onSuccess: (result) => {
          form.setFieldsValue({ clientSecret: '' });
          if (result.ok) void message.success(t('admin.saved'));
          else void message.warning(t('admin.checkFailed', { reason: result.reason ?? '' }));
        },
        onError: (err) => applyServerErrors(form, err),
      },
    );
  };

  return (
    <Card
      title={t('admin.connectionTitle')}
      extra={
        integration.isConnected ? (
          <Tag color={integration.status === 'broken' ? 'red' : 'green'}>{t('admin.connected')}</Tag>
        ) : (
          <Tag>{t('admin.notConnected')}</Tag>
        )
      }
    >
      <Typography.Paragraph type="secondary">{t('admin.connectionText')}</Typography.Paragraph>
      <Form
        form={form}
        layout="vertical"
        onFinish={onFinish}
        initialValues={{ channel: initial.channel, botId: initial.botId, matchVariable: initial.matchVariable }}
      >
        <Form.Item name="clientId" label={t('admin.clientId')} rules={[{ required: !integration.isConnected }]}>
          <Input autoComplete="off" />
        </Form.Item>
        <Form.Item
          name="clientSecret"
          label={t('admin.clientSecret')}
          rules={[{ required: !integration.isConnected }]}
          extra={integration.isConnected ? t('admin.secretKept') : undefined}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item name="channel" label={t('admin.channel')}>
          <Select
            options={SENDPULSE_CHANNELS.map((c) => ({ value: c, label: t(`panel.channel.${c as ChannelKey}`) }))}
          />
        </Form.Item>
        <Form.Item name="botId" label={t('admin.botId')} extra={t('admin.botIdHint')}>
          <Input autoComplete="off" />
        </Form.Item>
        <Form.Item name="matchVariable" label={t('admin.matchVariable')}>
          <Input autoComplete="off" />
        </Form.Item>
        {integration.status === 'broken' && integration.statusReason && (
          <Alert type="warning" showIcon title={reasonText(integration.statusReason)} className="lr-widget-alert" />
        )}
        {connect.isError && <Alert type="error" showIcon title={errorMessage(connect.error)} />}
        <Button type="primary" htmlType="submit" loading={connect.isPending}>
          {integration.isConnected ? t('admin.save') : t('admin.connect')}
        </Button>
      </Form>
    </Card>
  );
}
