import {
  type ConnectionCheck,
  GA_REGIONS,
  type GaSettings,
  type Integration,
  ZGaAuth,
  ZGaSettings,
} from '@leadrelay/shared';
import { Alert, Button, Card, Form, Input, Radio } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SecretInput } from '../../../components/integrations/secret-input';
import { reasonText } from '../../../components/integrations/status-tag';
import { PermissionGuard } from '../../../components/permission-guard';
import { errorMessage, translateCode } from '../../../lib/errors';
import { zodRule } from '../../../lib/form';
import { HttpError } from '../../../lib/http';
import { useConnectMutation } from '../../../lib/integrations/queries';
import { useFormGuard } from '../../../lib/unsaved-changes';
import { useApp } from '../../../lib/use-app';

interface Values {
  measurementId: string;
  region: GaSettings['region'];
  apiSecret?: string;
}

/** The web stream's measurement id, the Measurement Protocol API secret (write-only) and the region. */
export function GaConnectionCard({ integration }: { integration: Integration }) {
  const { t } = useTranslation('ga');
  const { t: tc } = useTranslation('common');
  const { message } = useApp();
  const [form] = Form.useForm<Values>();
  const guard = useFormGuard();
  const connect = useConnectMutation(integration._id);
  const saved = integration.settings as Partial<GaSettings>;
  const [replacing, setReplacing] = useState(false);
  const [result, setResult] = useState<ConnectionCheck | null>(null);

  const onFinish = async (v: Values) => {
    const secret = v.apiSecret?.trim();
    if (!integration.isConnected && !secret) {
      form.setFields([{ name: 'apiSecret', errors: [translateCode('REQUIRED')] }]);
      return;
    }
    try {
      const res = await connect.mutateAsync({
        settings: { ...saved, measurementId: v.measurementId.trim().toUpperCase(), region: v.region },
        ...(secret ? { auth: { apiSecret: secret } } : {}),
      });
      setResult(res);
      setReplacing(false);
      form.setFieldValue('apiSecret', undefined);
      guard.saved();
      void message.success(tc('saved'));
    } catch (err) {
      if (err instanceof HttpError && err.errors.length) {
        form.setFields(
          err.errors.map((e) => ({
            name: e.field.startsWith('auth') ? 'apiSecret' : e.field === 'settings.region' ? 'region' : 'measurementId',
            errors: [translateCode(e.code)],
          })),
        );
      }
      void message.error(errorMessage(err));
    }
  };

  return (
    <Card title={t('connection.title')}>
      <Form<Values>
        form={form}
        layout="vertical"
        requiredMark={false}
        onFinish={onFinish}
        onValuesChange={guard.onValuesChange}
        initialValues={{ measurementId: saved.measurementId ?? '', region: saved.region ?? 'global' }}
      >
        <Form.Item
          name="measurementId"
          label={t('connection.measurementId')}
          extra={t('connection.measurementIdHint')}
          normalize={(v: string) => v.toUpperCase()}
          rules={[zodRule(ZGaSettings.shape.measurementId)]}
        >
          <Input placeholder="G-XXXXXXXXXX" className="lr-mono" maxLength={22} />
        </Form.Item>
        <SecretInput
          name="apiSecret"
          label={t('connection.apiSecret')}
          extra={t('connection.apiSecretHint')}
          isSet={integration.isConnected}
          replacing={replacing}
          onReplace={setReplacing}
          rules={[
            {
              validator: async (_r, v?: string) => {
                const parsed = v ? ZGaAuth.shape.apiSecret.safeParse(v) : undefined;
                if (parsed && !parsed.success) throw new Error(translateCode(parsed.error.issues[0]?.message));
              },
            },
          ]}
        />
        <Form.Item name="region" label={t('connection.region')} extra={t('connection.regionHint')}>
          <Radio.Group options={GA_REGIONS.map((r) => ({ value: r, label: t(`regions.${r}`) }))} />
        </Form.Item>
        {result && (
          <Alert
            className="lr-mb"
            type={result.ok ? 'success' : 'error'}
            showIcon
            role="status"
            title={result.ok ? t('connection.checkOk') : t('connection.checkFailed')}
            description={result.ok ? undefined : result.reason && reasonText(result.reason)}
          />
        )}
        <div className="lr-actions">
          <PermissionGuard>
            <Button type="primary" htmlType="submit" loading={connect.isPending}>
              {t('connection.save')}
            </Button>
          </PermissionGuard>
        </div>
      </Form>
    </Card>
  );
}
