import type { HookStatus } from '@leadrelay/shared';
import { Alert, Button, Card, Form, Input, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage, translateCode } from '../../../lib/errors';
import { type IngestReply, sendToWebhook } from '../../../lib/integrations/api';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { webhookToken } from '../token';

interface Values {
  webhook: string;
  name: string;
  phone: string;
  email: string;
  message: string;
}

/**
 * /test: a public page that sends a test lead to a LeadRelay webhook, as a website form would.
 * Whoever builds the site (often not the account's owner) checks the integration end to end
 * without a site, and sees at once whether the lead was accepted, filtered or a duplicate.
 */
export function TestPage() {
  const { t } = useTranslation('testLead');
  const { t: th } = useTranslation('hooks');
  const [form] = Form.useForm<Values>();
  const [result, setResult] = useState<IngestReply | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  useDocumentTitle(t('title'));

  const submit = async (values: Values) => {
    const token = webhookToken(values.webhook);
    if (!token) return;
    setSending(true);
    setResult(null);
    setFailure(null);
    try {
      const { webhook: _webhook, ...lead } = values;
      const fields = Object.fromEntries(Object.entries(lead).filter(([, v]) => typeof v === 'string' && v.trim()));
      setResult(await sendToWebhook(token, { ...fields, source: 'leadrelay-test-page' }));
    } catch (err) {
      setFailure(errorMessage(err));
    } finally {
      setSending(false);
    }
  };

  return (
    <div className="lr-news">
      <Typography.Title level={1}>{t('title')}</Typography.Title>
      <Typography.Paragraph type="secondary">{t('intro')}</Typography.Paragraph>
      <Card>
        <Form
          form={form}
          layout="vertical"
          onFinish={(v) => void submit(v)}
          initialValues={{
            name: t('sample.name'),
            phone: '067 123 45 67',
            email: 'olena@example.com',
            message: t('sample.message'),
          }}
        >
          <Form.Item
            name="webhook"
            label={t('webhook')}
            extra={t('webhookHelp')}
            rules={[
              {
                validator: async (_r, v: string | undefined) => {
                  if (!webhookToken(v ?? '')) throw new Error(t('webhookInvalid'));
                },
              },
            ]}
          >
            <Input placeholder="https://…/api/hooks/in/…" autoComplete="off" />
          </Form.Item>
          <Form.Item name="name" label={t('fields.name')}>
            <Input maxLength={200} />
          </Form.Item>
          <Form.Item name="phone" label={t('fields.phone')}>
            <Input maxLength={50} />
          </Form.Item>
          <Form.Item
            name="email"
            label={t('fields.email')}
            rules={[{ type: 'email', message: translateCode('EMAIL') }]}
          >
            <Input maxLength={254} />
          </Form.Item>
          <Form.Item name="message" label={t('fields.message')}>
            <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} maxLength={2000} />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={sending}>
            {t('send')}
          </Button>
        </Form>
      </Card>
      {result && (
        <Alert
          style={{ marginTop: 16 }}
          type={result.status === 'filtered' || result.status === 'duplicate' ? 'warning' : 'success'}
          showIcon
          title={t('sent', { status: th(`status.${result.status as HookStatus}`) })}
          description={t('sentHint', { id: result.hookId })}
          role="status"
        />
      )}
      {failure && <Alert style={{ marginTop: 16 }} type="error" showIcon title={failure} role="alert" />}
    </div>
  );
}
