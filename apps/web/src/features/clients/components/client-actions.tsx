import { DownOutlined } from '@ant-design/icons';
import type { Client } from '@leadrelay/shared';
import { Button, Dropdown, type MenuProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../lib/errors';
import { openEnteredSession } from '../../../lib/impersonation';
import { useApp } from '../../../lib/use-app';
import { useDeleteClientMutation, useEnterMutation, useResetPasswordMutation } from '../queries';

export type ClientDialog = 'stats' | 'edit' | 'hardDelete';

/**
 * What the operator can do with one account. Nobody touches the owner or their own account; staff
 * accounts are the owner's to manage; only client accounts can be entered (the server says the same).
 */
export function ClientActions({
  client,
  me,
  onOpen,
}: {
  client: Client;
  me: { _id: string; role: Client['role'] };
  onOpen: (dialog: ClientDialog, client: Client) => void;
}) {
  const { t } = useTranslation('clients');
  const { message, modal } = useApp();
  const enter = useEnterMutation();
  const reset = useResetPasswordMutation();
  const remove = useDeleteClientMutation();
  const manageable =
    client.role !== 'owner' && client._id !== me._id && (client.role === 'client' || me.role === 'owner');
  const live = client.deletedAt === null;

  const run = async (action: () => Promise<unknown>, done?: string) => {
    try {
      await action();
      if (done) void message.success(done);
    } catch (err) {
      void message.error(errorMessage(err));
    }
  };

  const items: MenuProps['items'] = [
    { key: 'stats', label: t('actions.stats') },
    { key: 'edit', label: t('actions.edit'), disabled: !manageable || !live },
    { key: 'enter', label: t('actions.enter'), disabled: !live || client.role !== 'client' },
    { key: 'reset', label: t('actions.resetPassword'), disabled: !manageable || !live },
    { type: 'divider' },
    { key: 'delete', label: t('actions.delete'), danger: true, disabled: !manageable || !live },
    { key: 'hardDelete', label: t('actions.hardDelete'), danger: true, disabled: !manageable },
  ];

  const onClick: MenuProps['onClick'] = ({ key }) => {
    if (key === 'stats' || key === 'edit' || key === 'hardDelete') onOpen(key, client);
    if (key === 'enter') {
      void run(async () => openEnteredSession((await enter.mutateAsync(client._id)).code));
    }
    // Spec 5: the reset is skipped without a user id.
    if (key === 'reset' && client._id) {
      modal.confirm({
        title: t('resetPassword.confirm', { login: client.login }),
        content: t('resetPassword.explain'),
        okText: t('resetPassword.submit'),
        onOk: () => run(() => reset.mutateAsync(client._id), t('resetPassword.done', { login: client.login })),
      });
    }
    if (key === 'delete') {
      modal.confirm({
        title: t('delete.confirm', { login: client.login }),
        content: t('delete.explain'),
        okText: t('delete.submit'),
        okButtonProps: { danger: true },
        onOk: () => run(() => remove.mutateAsync(client._id), t('delete.done', { login: client.login })),
      });
    }
  };

  return (
    <Dropdown menu={{ items, onClick }} trigger={['click']}>
      <Button size="small" loading={enter.isPending} data-testid={`actions-${client.login}`}>
        {t('actions.title')} <DownOutlined aria-hidden />
      </Button>
    </Dropdown>
  );
}
