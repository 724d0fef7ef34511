import { ZCreateIntegrationBody, ZPipedriveApiToken } from '@leadrelay/shared';
import { Form, Input, Modal, Radio, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { translateCode } from '../../../lib/errors';
import { zodRule } from '../../../lib/form';

export interface CreateValues {
  name: string;
  method: 'oauth' | 'token';
  apiToken?: string;
}

interface Props {
  open: boolean;
  crmName: string;
  /** Pipedrive offers an API token besides OAuth. */
  withToken?: boolean;
  busy: boolean;
  onCancel: () => void;
  onSubmit: (values: CreateValues) => void;
}

/** ZPipedriveConnectBody's apiToken, as the server checks it: MIN_LENGTH_10, MAX_LENGTH_200. */
export const tokenRules = () => [
  { required: true, whitespace: true, message: translateCode('REQUIRED') },
  zodRule(ZPipedriveApiToken),
];

/** Name the new connection and choose how to authorise it. */
export function CrmCreateModal({ open, crmName, withToken, busy, onCancel, onSubmit }: Props) {
  const { t } = useTranslation('crm');
  const [form] = Form.useForm<CreateValues>();
  const method = Form.useWatch('method', form);
  return (
    <Modal
      open={open}
      title={t('create.title', { crm: crmName })}
      okText={method === 'token' ? t('create.saveToken') : t('create.go', { crm: crmName })}
      cancelText={t('cancel')}
      onOk={() => form.submit()}
      onCancel={onCancel}
      confirmLoading={busy}
      destroyOnHidden
      forceRender
    >
      <Form<CreateValues>
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={{ name: crmName, method: 'oauth' }}
        onFinish={(v) => onSubmit({ ...v, name: v.name.trim(), apiToken: v.apiToken?.trim() })}
      >
        <Form.Item name="name" label={t('create.name')} rules={[zodRule(ZCreateIntegrationBody.shape.name)]}>
          <Input maxLength={100} />
        </Form.Item>
        {withToken && (
          <Form.Item name="method" label={t('create.method')}>
            <Radio.Group
              className="lr-crm-radios"
              options={[
                { value: 'oauth', label: t('create.oauth') },
                { value: 'token', label: t('create.token') },
              ]}
            />
          </Form.Item>
        )}
        {withToken && method === 'token' && (
          <Form.Item name="apiToken" label={t('token.label')} extra={t('token.hint')} rules={tokenRules()}>
            <Input.Password autoComplete="off" />
          </Form.Item>
        )}
        {method !== 'token' && (
          <Typography.Paragraph type="secondary" className="lr-hint">
            {withToken ? t('create.oauthHintTab', { crm: crmName }) : t('create.oauthHint', { crm: crmName })}
          </Typography.Paragraph>
        )}
      </Form>
    </Modal>
  );
}
