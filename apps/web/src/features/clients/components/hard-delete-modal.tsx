import type { Client } from '@leadrelay/shared';
import { Alert, Input, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../lib/errors';
import { useApp } from '../../../lib/use-app';
import { useHardDeleteClientMutation } from '../queries';

/** Deleting for good: the account and everything it owns, after typing its login. */
export function HardDeleteModal({ client, onClose }: { client: Client | null; onClose: () => void }) {
  const { t } = useTranslation('clients');
  const { message } = useApp();
  const [typed, setTyped] = useState('');
  const remove = useHardDeleteClientMutation();
  if (!client) return null;
  const matches = typed.trim().toLowerCase() === client.login.toLowerCase();
  const close = () => {
    setTyped('');
    onClose();
  };
  return (
    <Modal
      open
      title={t('hardDelete.title')}
      onCancel={close}
      okText={t('hardDelete.submit')}
      okButtonProps={{ danger: true, disabled: !matches }}
      confirmLoading={remove.isPending}
      onOk={async () => {
        try {
          await remove.mutateAsync({ id: client._id, confirm: typed });
          void message.success(t('hardDelete.done', { login: client.login }));
          close();
        } catch (err) {
          void message.error(errorMessage(err));
        }
      }}
    >
      <Alert type="error" showIcon title={t('hardDelete.warning')} />
      <Typography.Paragraph className="lr-hard-delete-prompt">
        {t('hardDelete.prompt')} <Typography.Text code>{client.login}</Typography.Text>
      </Typography.Paragraph>
      <Input
        aria-label={t('hardDelete.prompt')}
        value={typed}
        onChange={(e) => setTyped(e.target.value)}
        autoComplete="off"
        data-testid="hard-delete-confirm"
      />
    </Modal>
  );
}
