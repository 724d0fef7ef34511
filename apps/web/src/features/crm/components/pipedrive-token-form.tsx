import type { Integration } from '@leadrelay/shared';
import { Button, Collapse, Form, Input, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { PermissionGuard } from '../../../components/permission-guard';
import { errorMessage } from '../../../lib/errors';
import { useApp } from '../../../lib/use-app';
import { usePipedriveConnect } from '../queries';
import { tokenRules } from './crm-create-modal';

/** The alternative to OAuth: a personal API token (write-only; the server never sends it back). */
export function PipedriveTokenForm({ integration }: { integration: Integration }) {
  const { t } = useTranslation('crm');
  const { message } = useApp();
  const [form] = Form.useForm<{ apiToken: string }>();
  const connect = usePipedriveConnect();

  const onFinish = async ({ apiToken }: { apiToken: string }) => {
    try {
      await connect.mutateAsync({ integrationId: integration._id, apiToken: apiToken.trim() });
      form.resetFields();
      void message.success(t('ui.saved_success'));
    } catch (err) {
      void message.error(errorMessage(err));
    }
  };

  return (
    <Collapse
      ghost
      className="lr-crm-section"
      items={[
        {
          key: 'token',
          label: t('token.title'),
          children: (
            <Form form={form} layout="vertical" requiredMark={false} onFinish={onFinish}>
              <Typography.Paragraph type="secondary" className="lr-hint">
                {t('token.hint')}
              </Typography.Paragraph>
              <div className="lr-add-row">
                <Form.Item name="apiToken" noStyle rules={tokenRules()}>
                  <Input.Password
                    autoComplete="off"
                    aria-label={t('token.label')}
                    placeholder={t('token.label')}
                    className="lr-grow"
                  />
                </Form.Item>
                <PermissionGuard>
                  <Button htmlType="submit" loading={connect.isPending}>
                    {t('token.save')}
                  </Button>
                </PermissionGuard>
              </div>
              <Form.Item shouldUpdate noStyle>
                {() => {
                  const errors = form.getFieldError('apiToken');
                  return errors.length ? <Typography.Text type="danger">{errors[0]}</Typography.Text> : null;
                }}
              </Form.Item>
            </Form>
          ),
        },
      ]}
    />
  );
}
