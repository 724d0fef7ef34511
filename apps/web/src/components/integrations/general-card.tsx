import { type Integration, ZCreateIntegrationBody } from '@leadrelay/shared';
import { Button, Card, Descriptions, Form, Input, Popconfirm, Switch } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { errorMessage } from '../../lib/errors';
import { applyServerErrors, zodRule } from '../../lib/form';
import { formatDateTime } from '../../lib/format';
import { useDeleteIntegrationMutation, useUpdateIntegrationMutation } from '../../lib/integrations/queries';
import { localePath } from '../../lib/locale';
import { useFormGuard } from '../../lib/unsaved-changes';
import { useApp } from '../../lib/use-app';
import { PermissionGuard } from '../permission-guard';
import { StatusTag } from './status-tag';

interface Values {
  name: string;
  active: boolean;
}

/** Name, active, connection status (live through the 'integrations' query prefix), delete. */
export function GeneralCard({ integration, typeLabel }: { integration: Integration; typeLabel: string }) {
  const { t } = useTranslation('integrations');
  const { t: tc } = useTranslation('common');
  const { message } = useApp();
  const navigate = useNavigate();
  const [form] = Form.useForm<Values>();
  const update = useUpdateIntegrationMutation();
  const remove = useDeleteIntegrationMutation();
  const guard = useFormGuard();

  // A live refresh updates untouched fields only, so typing is never overwritten.
  useEffect(() => {
    if (!form.isFieldTouched('name')) form.setFieldValue('name', integration.name);
    if (!form.isFieldTouched('active')) form.setFieldValue('active', integration.active);
  }, [integration.name, integration.active, form]);

  const onFinish = async (values: Values) => {
    try {
      await update.mutateAsync({ id: integration._id, body: { name: values.name.trim(), active: values.active } });
      guard.saved();
      form.resetFields();
      void message.success(tc('saved'));
    } catch (err) {
      if (!applyServerErrors(form, err)) void message.error(errorMessage(err));
    }
  };
  const onDelete = async () => {
    try {
      await remove.mutateAsync(integration._id);
      void message.success(tc('deleted'));
      navigate(localePath('/admin/integrations'));
    } catch (err) {
      void message.error(errorMessage(err));
    }
  };

  return (
    <Card title={t('general.title')}>
      <Form<Values>
        form={form}
        layout="vertical"
        initialValues={{ name: integration.name, active: integration.active }}
        onFinish={onFinish}
        onValuesChange={guard.onValuesChange}
        requiredMark={false}
      >
        <Form.Item name="name" label={t('general.name')} rules={[zodRule(ZCreateIntegrationBody.shape.name)]}>
          <Input maxLength={100} />
        </Form.Item>
        <Form.Item name="active" label={t('general.active')} valuePropName="checked" extra={t('general.activeHint')}>
          <Switch />
        </Form.Item>
        <Descriptions column={1} size="small" className="lr-mb">
          <Descriptions.Item label={t('general.type')}>{typeLabel}</Descriptions.Item>
          <Descriptions.Item label={t('general.status')}>
            <StatusTag integration={integration} />
          </Descriptions.Item>
          <Descriptions.Item label={t('general.updated')}>{formatDateTime(integration.updatedAt)}</Descriptions.Item>
        </Descriptions>
        <div className="lr-actions lr-actions-split">
          <PermissionGuard>
            <Popconfirm
              title={t('list.deleteConfirm', { name: integration.name })}
              description={t('list.deleteHint')}
              okText={t('list.delete')}
              okButtonProps={{ danger: true }}
              cancelText={tc('cancel')}
              onConfirm={onDelete}
            >
              <Button danger>{t('list.delete')}</Button>
            </Popconfirm>
          </PermissionGuard>
          <PermissionGuard>
            {/* Saves this card's fields only: enabled once one of them changed. */}
            <Button type="primary" htmlType="submit" loading={update.isPending} disabled={!guard.dirty}>
              {tc('save')}
            </Button>
          </PermissionGuard>
        </div>
      </Form>
    </Card>
  );
}
