import { type ApiKeyScope, type CreatedApiKey, ZCreateApiKeyBody } from '@leadrelay/shared';
import { Alert, Button, Form, Input, Modal, Radio, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../lib/errors';
import { applyServerErrors, zodRule } from '../../../lib/form';
import { useApp } from '../../../lib/use-app';
import { useCreateApiKeyMutation } from '../queries';

type Values = { name: string; scope: ApiKeyScope };

/** The key made, in full, this once: copy it now or make another. */
function NewKey({ created }: { created: CreatedApiKey }) {
  const { t } = useTranslation('account');
  return (
    <div className="lr-api-key-new">
      <Alert type="warning" showIcon title={t('apiKeys.shownOnce')} />
      <Typography.Text strong>{t('apiKeys.yourKey', { name: created.name })}</Typography.Text>
      <div className="lr-api-key-copy">
        <Input readOnly value={created.key} aria-label={t('apiKeys.yourKey', { name: created.name })} />
        <Typography.Text
          copyable={{ text: created.key, tooltips: [t('apiKeys.copy'), t('apiKeys.copied')] }}
          className="lr-api-key-copy-button"
        />
      </div>
      <Typography.Paragraph type="secondary" className="lr-api-key-usage">
        {t('apiKeys.usage')}
      </Typography.Paragraph>
      <pre className="lr-api-key-code">{`Authorization: Bearer ${created.key}`}</pre>
    </div>
  );
}

/** "Create key": a name and a scope; then the key, shown once, with a copy button. */
export function CreateApiKeyDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('account');
  const { t: tc } = useTranslation('common');
  const { message } = useApp();
  const [form] = Form.useForm<Values>();
  const create = useCreateApiKeyMutation();
  const [created, setCreated] = useState<CreatedApiKey | null>(null);

  const close = () => {
    // The key leaves memory with the dialog: it cannot be shown again.
    setCreated(null);
    form.resetFields();
    onClose();
  };

  const onFinish = async (values: Values) => {
    try {
      setCreated(await create.mutateAsync(ZCreateApiKeyBody.parse(values)));
    } catch (err) {
      if (!applyServerErrors(form, err)) void message.error(errorMessage(err));
    }
  };

  const { shape } = ZCreateApiKeyBody;
  return (
    <Modal
      open={open}
      title={created ? t('apiKeys.createdTitle') : t('apiKeys.createTitle')}
      onCancel={close}
      destroyOnHidden
      maskClosable={!created}
      footer={
        created ? (
          <Button type="primary" onClick={close}>
            {t('apiKeys.done')}
          </Button>
        ) : (
          <Space>
            <Button onClick={close}>{tc('cancel')}</Button>
            <Button type="primary" htmlType="submit" form="lr-api-key-form" loading={create.isPending}>
              {t('apiKeys.create')}
            </Button>
          </Space>
        )
      }
    >
      {created ? (
        <NewKey created={created} />
      ) : (
        <Form
          form={form}
          id="lr-api-key-form"
          name="lr-api-key"
          layout="vertical"
          onFinish={onFinish}
          initialValues={{ name: '', scope: 'read' }}
        >
          <Form.Item name="name" label={t('apiKeys.name')} extra={t('apiKeys.nameHint')} rules={[zodRule(shape.name)]}>
            <Input maxLength={60} autoFocus autoComplete="off" />
          </Form.Item>
          <Form.Item name="scope" label={t('apiKeys.scope')}>
            <Radio.Group className="lr-api-key-scopes">
              <Radio value="read">
                <span className="lr-api-key-scope-label">{t('apiKeys.scopes.read')}</span>
                <Typography.Text type="secondary" className="lr-api-key-scope-hint">
                  {t('apiKeys.scopeHints.read')}
                </Typography.Text>
              </Radio>
              <Radio value="write">
                <span className="lr-api-key-scope-label">{t('apiKeys.scopes.write')}</span>
                <Typography.Text type="secondary" className="lr-api-key-scope-hint">
                  {t('apiKeys.scopeHints.write')}
                </Typography.Text>
              </Radio>
            </Radio.Group>
          </Form.Item>
        </Form>
      )}
    </Modal>
  );
}
