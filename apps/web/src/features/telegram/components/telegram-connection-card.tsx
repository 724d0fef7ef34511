import { RobotOutlined } from '@ant-design/icons';
import { type Integration, TELEGRAM_TOKEN_PATTERN, type TelegramConnectMode } from '@leadrelay/shared';
import { Alert, Button, Card, Descriptions, Form, Input, Radio, Skeleton, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PermissionGuard } from '../../../components/permission-guard';
import { errorMessage } from '../../../lib/errors';
import { useApp } from '../../../lib/use-app';
import { useConnectTelegram, useTelegramAccount } from '../queries';

interface Values {
  mode: TelegramConnectMode;
  botToken?: string;
}

/** Which bot sends the cards: the account's own (a BotFather token) or the platform's; and which one is used now. */
export function TelegramConnectionCard({ integration }: { integration: Integration }) {
  const { t } = useTranslation('telegram');
  const { message } = useApp();
  const account = useTelegramAccount(integration._id);
  const connect = useConnectTelegram(integration._id);
  const [form] = Form.useForm<Values>();
  const [changing, setChanging] = useState(false);
  const mode = Form.useWatch('mode', form);

  if (account.isPending)
    return (
      <Card title={t('connection.title')}>
        <Skeleton active />
      </Card>
    );
  const info = account.data;
  const platformAvailable = info?.platformAvailable ?? false;

  const onFinish = async (values: Values) => {
    try {
      await connect.mutateAsync(
        values.mode === 'own' ? { mode: 'own', botToken: (values.botToken ?? '').trim() } : { mode: 'platform' },
      );
      setChanging(false);
      form.resetFields();
      void message.success(t('connection.connected'));
    } catch (err) {
      void message.error(errorMessage(err));
    }
  };

  const showForm = changing || !info?.connected;
  return (
    <Card title={t('connection.title')}>
      {info?.connected && (
        <Descriptions column={1} size="small" className="lr-mb" bordered>
          <Descriptions.Item label={t('connection.bot')}>
            <Space wrap>
              <RobotOutlined aria-hidden />
              {info.botUsername ? (
                <Typography.Link href={`https://t.me/${info.botUsername}`} target="_blank" rel="noreferrer">
                  @{info.botUsername}
                </Typography.Link>
              ) : (
                '—'
              )}
              <Tag color={info.mode === 'own' ? 'blue' : 'default'}>{t(`connection.modes.${info.mode ?? 'own'}`)}</Tag>
            </Space>
          </Descriptions.Item>
        </Descriptions>
      )}
      {showForm ? (
        <Form<Values>
          form={form}
          layout="vertical"
          requiredMark={false}
          onFinish={onFinish}
          initialValues={{ mode: platformAvailable ? 'platform' : 'own' }}
        >
          <Form.Item name="mode" label={t('connection.which')}>
            <Radio.Group className="lr-full">
              <Space direction="vertical">
                <Radio value="platform" disabled={!platformAvailable}>
                  {t('connection.modes.platform')}
                  <div>
                    <Typography.Text type="secondary" className="lr-hint">
                      {platformAvailable ? t('connection.platformHint') : t('connection.platformMissing')}
                    </Typography.Text>
                  </div>
                </Radio>
                <Radio value="own">
                  {t('connection.modes.own')}
                  <div>
                    <Typography.Text type="secondary" className="lr-hint">
                      {t('connection.ownHint')}
                    </Typography.Text>
                  </div>
                </Radio>
              </Space>
            </Radio.Group>
          </Form.Item>
          {mode === 'own' && (
            <Form.Item
              name="botToken"
              label={t('connection.token')}
              extra={t('connection.tokenHint')}
              rules={[
                { required: true, message: t('connection.tokenRequired') },
                { pattern: TELEGRAM_TOKEN_PATTERN, message: t('connection.tokenInvalid') },
              ]}
            >
              <Input.Password autoComplete="off" placeholder="123456789:AA…" />
            </Form.Item>
          )}
          <PermissionGuard>
            <Space wrap>
              <Button type="primary" htmlType="submit" loading={connect.isPending}>
                {t('connection.connect')}
              </Button>
              {changing && <Button onClick={() => setChanging(false)}>{t('connection.cancel')}</Button>}
            </Space>
          </PermissionGuard>
        </Form>
      ) : (
        <PermissionGuard>
          <Button onClick={() => setChanging(true)}>{t('connection.change')}</Button>
        </PermissionGuard>
      )}
      {info && !info.connected && <Alert className="lr-mt" type="info" showIcon title={t('connection.howItWorks')} />}
    </Card>
  );
}
