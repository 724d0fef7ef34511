import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import type { ConnectionCheck, Integration } from '@leadrelay/shared';
import { Alert, Button, Card, Form, Input, Radio, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { checkReason } from '../../../components/integrations/status-tag';
import { PermissionGuard } from '../../../components/permission-guard';
import { errorMessage, translateCode } from '../../../lib/errors';
import { HttpError } from '../../../lib/http';
import { useCheckConnectionMutation, useConnectMutation } from '../../../lib/integrations/queries';
import { useFormGuard } from '../../../lib/unsaved-changes';
import { useApp } from '../../../lib/use-app';

interface Values {
  url: string;
  headers: { name: string; value: string }[];
  format: 'lead' | 'lead+raw';
  secret?: string;
}

// The connector's own rules (packages/connectors/src/http) are the authority; these catch typos early.
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const RESERVED =
  /^(host|content-length|content-type|transfer-encoding|connection|keep-alive|upgrade|te|trailer|expect|idempotency-key|user-agent|x-leadrelay-.*)$/i;

function isHttpUrl(value: string): boolean {
  try {
    return /^https?:$/.test(new URL(value).protocol);
  } catch {
    return false;
  }
}

/** The http destination: URL, write-only secret, extra headers, body format, connection check. */
export function HttpSettingsCard({ integration }: { integration: Integration }) {
  const { t } = useTranslation('integrations');
  const { t: tc } = useTranslation('common');
  const { message } = useApp();
  const [form] = Form.useForm<Values>();
  const connect = useConnectMutation(integration._id);
  const check = useCheckConnectionMutation(integration._id);
  const [replacing, setReplacing] = useState(!integration.isConnected);
  const [result, setResult] = useState<ConnectionCheck | null>(null);
  const guard = useFormGuard();
  const settings = integration.settings as {
    url?: string;
    headers?: Record<string, string>;
    format?: Values['format'];
  };

  const send = async (body: Parameters<typeof connect.mutateAsync>[0]) => {
    try {
      const res = await connect.mutateAsync(body);
      // Stored: the server answered with the saved integration (its check result beside it).
      guard.saved();
      setResult(res);
      setReplacing(!res.integration.isConnected);
      form.setFieldValue('secret', undefined);
      void message.success(tc('saved'));
    } catch (err) {
      if (err instanceof HttpError && err.errors.length) {
        form.setFields(
          err.errors.map((e) => ({
            name: e.field === 'settings.url' ? 'url' : e.field.startsWith('auth') ? 'secret' : 'headers',
            errors: [translateCode(e.code)],
          })) as never,
        );
      }
      void message.error(errorMessage(err));
    }
  };

  const onFinish = (values: Values) => {
    const headers = Object.fromEntries(
      (values.headers ?? []).filter((h) => h.name?.trim()).map((h) => [h.name.trim(), h.value ?? '']),
    );
    const secret = values.secret?.trim();
    void send({
      settings: { url: values.url.trim(), format: values.format, ...(Object.keys(headers).length ? { headers } : {}) },
      ...(replacing && secret ? { auth: { secret } } : {}),
    });
  };
  const onCheck = async () => {
    try {
      setResult(await check.mutateAsync());
    } catch (err) {
      void message.error(errorMessage(err));
    }
  };

  return (
    <Card title={t('http.title')}>
      <Form<Values>
        form={form}
        layout="vertical"
        requiredMark={false}
        onFinish={onFinish}
        onValuesChange={guard.onValuesChange}
        initialValues={{
          url: settings.url ?? '',
          headers: Object.entries(settings.headers ?? {}).map(([name, value]) => ({ name, value })),
          format: settings.format ?? 'lead',
        }}
      >
        <Form.Item
          name="url"
          label={t('http.url')}
          extra={t('http.urlHint')}
          rules={[
            { required: true, message: translateCode('REQUIRED') },
            {
              validator: async (_r, v: string) =>
                v && !isHttpUrl(v.trim()) ? Promise.reject(new Error(t('http.badUrl'))) : undefined,
            },
          ]}
        >
          <Input placeholder="https://example.com/leads" inputMode="url" className="lr-mono" />
        </Form.Item>

        <Form.Item label={t('http.secret')} extra={t('http.secretHint')}>
          {replacing ? (
            <div className="lr-add-row">
              <Form.Item name="secret" noStyle rules={[{ max: 500, message: translateCode('MAX_LENGTH_500') }]}>
                <Input.Password
                  autoComplete="new-password"
                  placeholder={t('http.secretPlaceholder')}
                  className="lr-grow"
                />
              </Form.Item>
              {integration.isConnected && <Button onClick={() => setReplacing(false)}>{tc('cancel')}</Button>}
            </div>
          ) : (
            <div className="lr-add-row">
              <Tag color="green">{t('http.secretSet')}</Tag>
              <Button size="small" onClick={() => setReplacing(true)}>
                {t('http.replace')}
              </Button>
              <PermissionGuard>
                <Button size="small" danger onClick={() => send({ auth: {} })}>
                  {t('http.removeSecret')}
                </Button>
              </PermissionGuard>
            </div>
          )}
        </Form.Item>

        <Form.Item label={t('http.headers')} extra={t('http.headersHint')}>
          <Form.List name="headers">
            {(fields, { add, remove }) => (
              <>
                {fields.map((field) => (
                  <div key={field.key} className="lr-header-row">
                    <Form.Item
                      name={[field.name, 'name']}
                      className="lr-grow"
                      rules={[
                        { required: true, message: translateCode('REQUIRED') },
                        {
                          validator: async (_r, v: string) =>
                            v && (!HEADER_NAME.test(v) || RESERVED.test(v))
                              ? Promise.reject(new Error(t('http.badHeader')))
                              : undefined,
                        },
                      ]}
                    >
                      <Input placeholder={t('http.headerName')} aria-label={t('http.headerName')} />
                    </Form.Item>
                    <Form.Item
                      name={[field.name, 'value']}
                      className="lr-grow"
                      rules={[{ pattern: /^[^\r\n\0]*$/, message: t('http.badHeaderValue') }]}
                    >
                      <Input placeholder={t('http.headerValue')} aria-label={t('http.headerValue')} />
                    </Form.Item>
                    <Button
                      type="text"
                      danger
                      icon={<DeleteOutlined aria-hidden />}
                      aria-label={t('http.removeHeader')}
                      onClick={() => remove(field.name)}
                    />
                  </div>
                ))}
                {fields.length < 10 && (
                  <Button icon={<PlusOutlined aria-hidden />} onClick={() => add({ name: '', value: '' })}>
                    {t('http.addHeader')}
                  </Button>
                )}
              </>
            )}
          </Form.List>
        </Form.Item>

        <Form.Item name="format" label={t('http.format')}>
          <Radio.Group
            options={[
              { value: 'lead', label: t('http.formatLead') },
              { value: 'lead+raw', label: t('http.formatRaw') },
            ]}
          />
        </Form.Item>

        {result && (
          <Alert
            className="lr-mb"
            type={result.ok ? 'success' : 'error'}
            showIcon
            role="status"
            title={result.ok ? t('http.checkOk') : t('http.checkFailed')}
            description={result.ok ? undefined : checkReason(result)}
          />
        )}
        <div className="lr-actions lr-actions-split">
          {/* The check calls the stored URL: after a change, saving checks the new one. */}
          <Button onClick={onCheck} loading={check.isPending} disabled={!settings.url || guard.dirty}>
            {t('http.check')}
          </Button>
          <PermissionGuard>
            <Button type="primary" htmlType="submit" loading={connect.isPending}>
              {t('http.save')}
            </Button>
          </PermissionGuard>
        </div>
        <Typography.Paragraph type="secondary" className="lr-hint lr-mt">
          {t('http.signatureHint')}
        </Typography.Paragraph>
      </Form>
    </Card>
  );
}
