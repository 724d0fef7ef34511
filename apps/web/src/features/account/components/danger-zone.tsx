import { ZPasswordBody } from '@leadrelay/shared';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Card, Form, Input, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { clearToken, markSignedOut } from '../../../lib/auth';
import { errorMessage } from '../../../lib/errors';
import { zodRule } from '../../../lib/form';
import { useHiddenActions } from '../../../lib/query-behaviours';
import { useApp } from '../../../lib/use-app';
import { accountApi } from '../api';

type Action = 'clear' | 'remove';

/** "Clear all data" and "remove account", both behind a modal asking for the password. */
export function DangerZone() {
  const { t } = useTranslation('account');
  const { t: tc } = useTranslation('common');
  const { message } = useApp();
  const qc = useQueryClient();
  const [form] = Form.useForm<{ password: string }>();
  const [action, setAction] = useState<Action | null>(null);
  const [busy, setBusy] = useState(false);
  const { isHidden } = useHiddenActions();

  const close = () => {
    setAction(null);
    form.resetFields();
  };

  const onFinish = async ({ password }: { password: string }) => {
    if (!action) return;
    setBusy(true);
    try {
      if (action === 'clear') {
        await accountApi.clearAllData(password);
        await qc.invalidateQueries();
        void message.success(t('danger.cleared'));
        close();
      } else {
        await accountApi.removeAccount(password);
        // The account guard then leaves for /signin with the notice.
        markSignedOut('/signin?message=account-removed');
        clearToken();
        qc.clear();
      }
    } catch (err) {
      form.setFields([{ name: 'password', errors: [errorMessage(err)] }]);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card title={t('danger.title')} className="lr-danger">
      {!isHidden('clear-all-data') && (
        <div className="lr-danger-row">
          <div>
            <Typography.Text strong>{t('danger.clearTitle')}</Typography.Text>
            <Typography.Paragraph type="secondary">{t('danger.clearText')}</Typography.Paragraph>
          </div>
          <Button danger onClick={() => setAction('clear')}>
            {t('danger.clearButton')}
          </Button>
        </div>
      )}
      {!isHidden('remove-account') && (
        <div className="lr-danger-row">
          <div>
            <Typography.Text strong>{t('danger.removeTitle')}</Typography.Text>
            <Typography.Paragraph type="secondary">{t('danger.removeText')}</Typography.Paragraph>
          </div>
          <Button danger type="primary" onClick={() => setAction('remove')}>
            {t('danger.removeButton')}
          </Button>
        </div>
      )}
      <Modal
        open={action !== null}
        title={action === 'remove' ? t('danger.removeTitle') : t('danger.clearTitle')}
        okText={action === 'remove' ? t('danger.removeButton') : t('danger.clearButton')}
        okButtonProps={{ danger: true, loading: busy, htmlType: 'submit', form: 'lr-danger-form' }}
        cancelText={tc('cancel')}
        onCancel={close}
        destroyOnHidden
      >
        <Typography.Paragraph>
          {action === 'remove' ? t('danger.removeText') : t('danger.clearText')} {t('danger.irreversible')}
        </Typography.Paragraph>
        <Form form={form} id="lr-danger-form" layout="vertical" onFinish={onFinish}>
          <Form.Item name="password" label={t('danger.passwordPrompt')} rules={[zodRule(ZPasswordBody.shape.password)]}>
            <Input.Password autoComplete="current-password" autoFocus />
          </Form.Item>
        </Form>
      </Modal>
    </Card>
  );
}
