import { ReloadOutlined, SyncOutlined } from '@ant-design/icons';
import { type ConnectionCheck, type Integration, ZAlphaSmsAuth } from '@leadrelay/shared';
import { Alert, Button, Card, Form, Statistic, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SecretInput } from '../../../components/integrations/secret-input';
import { reasonText } from '../../../components/integrations/status-tag';
import { PermissionGuard } from '../../../components/permission-guard';
import { errorMessage } from '../../../lib/errors';
import { zodRule } from '../../../lib/form';
import { intlLocale } from '../../../lib/format';
import { HttpError } from '../../../lib/http';
import { useCheckConnectionMutation, useConnectMutation } from '../../../lib/integrations/queries';
import { useApp } from '../../../lib/use-app';
import { useSmsBalance } from '../queries';

/** The API key (write-only), the account's balance at AlphaSMS and a connection check. */
export function SmsConnectionCard({ integration }: { integration: Integration }) {
  const { t } = useTranslation('sms');
  const { t: tc } = useTranslation('common');
  const { message } = useApp();
  const [form] = Form.useForm<{ apiKey?: string }>();
  const connect = useConnectMutation(integration._id);
  const check = useCheckConnectionMutation(integration._id);
  const balance = useSmsBalance(integration);
  const [replacing, setReplacing] = useState(false);
  const [result, setResult] = useState<ConnectionCheck | null>(null);

  const onFinish = async ({ apiKey }: { apiKey?: string }) => {
    try {
      const res = await connect.mutateAsync({ auth: { apiKey: apiKey?.trim() } });
      setResult(res);
      setReplacing(false);
      form.resetFields();
      void balance.refetch();
      void message.success(tc('saved'));
    } catch (err) {
      void message.error(errorMessage(err));
    }
  };
  const onCheck = async () => {
    try {
      setResult(await check.mutateAsync());
      void balance.refetch();
    } catch (err) {
      void message.error(errorMessage(err));
    }
  };

  const money = balance.data
    ? new Intl.NumberFormat(intlLocale(), { style: 'currency', currency: balance.data.currency }).format(
        balance.data.amount,
      )
    : undefined;
  const balanceFailed = balance.error instanceof HttpError ? balance.error : null;

  return (
    <Card title={t('connection.title')}>
      <Form form={form} layout="vertical" requiredMark={false} onFinish={onFinish}>
        <SecretInput
          name="apiKey"
          label={t('connection.apiKey')}
          extra={t('connection.apiKeyHint')}
          isSet={integration.isConnected}
          replacing={replacing}
          onReplace={setReplacing}
          rules={[zodRule(ZAlphaSmsAuth.shape.apiKey)]}
        />
        {(replacing || !integration.isConnected) && (
          <PermissionGuard>
            <Button type="primary" htmlType="submit" loading={connect.isPending} className="lr-mb">
              {t('connection.save')}
            </Button>
          </PermissionGuard>
        )}
      </Form>
      {integration.isConnected && (
        <div className="lr-mb">
          <Statistic
            className="lr-sms-balance"
            title={t('connection.balance')}
            value={money ?? '—'}
            loading={balance.isFetching && !balance.data}
          />
          {balanceFailed && (
            <Typography.Text type="danger" className="lr-hint">
              {balanceFailed.serverMessage ? reasonText(balanceFailed.serverMessage) : errorMessage(balanceFailed)}
            </Typography.Text>
          )}
          <Button
            size="small"
            icon={<ReloadOutlined aria-hidden />}
            onClick={() => void balance.refetch()}
            className="lr-mt"
          >
            {t('connection.refreshBalance')}
          </Button>
        </div>
      )}
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
      {integration.isConnected && (
        <Button icon={<SyncOutlined aria-hidden />} onClick={onCheck} loading={check.isPending}>
          {t('connection.check')}
        </Button>
      )}
    </Card>
  );
}
