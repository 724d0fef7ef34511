import { SendOutlined } from '@ant-design/icons';
import type { GaDebugResult, Integration } from '@leadrelay/shared';
import { useMutation } from '@tanstack/react-query';
import { Alert, Button, Card, Collapse, Form, Input, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { reasonText } from '../../../components/integrations/status-tag';
import { errorMessage } from '../../../lib/errors';
import { i18n } from '../../../lib/i18n';
import { useApp } from '../../../lib/use-app';
import { gaApi, type TestLead } from '../api';

interface Values {
  name?: string;
  email?: string;
  phone?: string;
  utmSource?: string;
  ga?: string;
}

/** Google's validation code in words (VALUE_INVALID, NAME_RESERVED …), the code itself when unknown. */
const codeText = (code: string) =>
  i18n.exists(`ga:validation.${code}`) ? i18n.t(`ga:validation.${code}` as 'ga:validation.VALUE_INVALID') : code;

/**
 * "Send a test lead": the event a lead would become, checked by our limits and then by Google's
 * validation server (nothing is recorded in GA); what is wrong is listed in the user's language,
 * Google's own sentence under it.
 */
export function GaTestCard({ integration }: { integration: Integration }) {
  const { t } = useTranslation('ga');
  const { message } = useApp();
  const [form] = Form.useForm<Values>();
  const [result, setResult] = useState<GaDebugResult | null>(null);
  const send = useMutation({ mutationFn: (lead?: TestLead) => gaApi.debug(integration._id, lead) });

  const onFinish = async (v: Values) => {
    const lead: TestLead = {
      ...(v.name?.trim() ? { name: v.name.trim() } : {}),
      ...(v.email?.trim() ? { email: v.email.trim() } : {}),
      ...(v.phone?.trim() ? { phone: v.phone.trim() } : {}),
      ...(v.utmSource?.trim() ? { utm: { source: v.utmSource.trim() } } : {}),
      custom: v.ga?.trim() ? { _ga: v.ga.trim() } : {},
    };
    try {
      setResult(await send.mutateAsync(Object.keys(lead).length > 1 || v.ga?.trim() ? lead : undefined));
    } catch (err) {
      setResult(null);
      void message.error(errorMessage(err));
    }
  };

  const problems = result ? result.issues.length + result.validationMessages.length : 0;
  return (
    <Card title={t('test.title')}>
      <Typography.Paragraph type="secondary" className="lr-hint">
        {t('test.hint')}
      </Typography.Paragraph>
      <Form<Values> form={form} layout="vertical" requiredMark={false} onFinish={onFinish}>
        <div className="lr-ga-row">
          <Form.Item name="name" label={t('test.name')}>
            <Input placeholder={t('test.namePlaceholder')} maxLength={200} />
          </Form.Item>
          <Form.Item name="email" label={t('test.email')}>
            <Input placeholder="olena@example.com" maxLength={254} inputMode="email" />
          </Form.Item>
          <Form.Item name="utmSource" label={t('test.utmSource')}>
            <Input placeholder="facebook" maxLength={100} />
          </Form.Item>
          <Form.Item name="ga" label={t('test.gaCookie')}>
            <Input placeholder="GA1.1.1234567890.1700000000" maxLength={100} className="lr-mono" />
          </Form.Item>
        </div>
        <Button
          type="primary"
          htmlType="submit"
          icon={<SendOutlined aria-hidden />}
          loading={send.isPending}
          disabled={!integration.isConnected}
        >
          {t('test.send')}
        </Button>
      </Form>
      {result && (
        <div className="lr-mt" data-testid="ga-test-result">
          {result.valid ? (
            <Alert type="success" showIcon role="status" title={t('test.valid')} description={t('test.validHint')} />
          ) : (
            <Alert
              type="error"
              showIcon
              role="status"
              title={t('test.invalid', { count: problems })}
              description={
                <ul className="lr-ga-messages">
                  {result.issues.map((i) => (
                    <li key={`${i.code}-${i.path}`}>
                      {reasonText(i.code)}
                      {i.path && (
                        <>
                          {' '}
                          <Typography.Text code>{i.path}</Typography.Text>
                        </>
                      )}
                    </li>
                  ))}
                  {result.validationMessages.map((m) => (
                    <li key={`${m.validationCode}|${m.fieldPath}|${m.description}`}>
                      {codeText(m.validationCode)}
                      {m.fieldPath && (
                        <>
                          {' '}
                          <Typography.Text code>{m.fieldPath}</Typography.Text>
                        </>
                      )}
                      {m.description && (
                        <div>
                          <Typography.Text type="secondary">
                            {t('test.google', { text: m.description })}
                          </Typography.Text>
                        </div>
                      )}
                    </li>
                  ))}
                </ul>
              }
            />
          )}
          <Collapse
            className="lr-mt"
            size="small"
            items={[
              {
                key: 'payload',
                label: t('test.payload'),
                children: <pre className="lr-ga-payload">{JSON.stringify(result.payload, null, 2)}</pre>,
              },
            ]}
          />
        </div>
      )}
    </Card>
  );
}
