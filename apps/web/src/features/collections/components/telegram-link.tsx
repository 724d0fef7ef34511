import { DisconnectOutlined, SendOutlined } from '@ant-design/icons';
import type { CollectionItem, TelegramLinkCode } from '@leadrelay/shared';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Modal, Popconfirm, Space, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PermissionGuard } from '../../../components/permission-guard';
import { errorMessage } from '../../../lib/errors';
import { formatDateTime } from '../../../lib/format';
import { useApp } from '../../../lib/use-app';
import { collectionKeys, useTelegramLinkCodeMutation, useTelegramUnlinkMutation } from '../queries';

interface Props {
  collectionId: string;
  item: CollectionItem;
  /** The Telegram destination whose bot the manager links to. */
  integrationId: string;
}

/** A manager's Telegram: linked (with unlink), or "Link Telegram", which shows a one-time link and code. */
export function TelegramLink({ collectionId, item, integrationId }: Props) {
  const { t } = useTranslation('collections');
  const { t: tc } = useTranslation('common');
  const { message } = useApp();
  const qc = useQueryClient();
  const makeCode = useTelegramLinkCodeMutation();
  const unlink = useTelegramUnlinkMutation();
  const [code, setCode] = useState<TelegramLinkCode | null>(null);

  const onLink = async () => {
    try {
      setCode(await makeCode.mutateAsync({ integrationId, collectionId, itemId: item.id }));
    } catch (err) {
      void message.error(errorMessage(err));
    }
  };
  const onUnlink = async () => {
    try {
      await unlink.mutateAsync({ collectionId, itemId: item.id });
      void message.success(t('telegram.unlinked'));
    } catch (err) {
      void message.error(errorMessage(err));
    }
  };
  const onClose = () => {
    setCode(null);
    // The manager may have pressed Start meanwhile.
    void qc.invalidateQueries({ queryKey: collectionKeys.all });
  };

  if (item.telegram) {
    return (
      <Space size={4} wrap>
        <Tag color="blue" icon={<SendOutlined aria-hidden />} data-testid={`telegram-linked-${item.id}`}>
          {item.telegram.username ? `@${item.telegram.username}` : t('telegram.linked')}
        </Tag>
        <PermissionGuard>
          <Popconfirm
            title={t('telegram.unlinkConfirm', { name: item.name })}
            okText={t('telegram.unlink')}
            cancelText={tc('cancel')}
            onConfirm={onUnlink}
          >
            <Tooltip title={t('telegram.unlink')}>
              <Button
                type="text"
                size="small"
                icon={<DisconnectOutlined aria-hidden />}
                aria-label={t('telegram.unlinkNamed', { name: item.name })}
              />
            </Tooltip>
          </Popconfirm>
        </PermissionGuard>
      </Space>
    );
  }
  return (
    <>
      <PermissionGuard>
        <Button size="small" icon={<SendOutlined aria-hidden />} loading={makeCode.isPending} onClick={onLink}>
          {t('telegram.link')}
        </Button>
      </PermissionGuard>
      <Modal
        open={code !== null}
        title={t('telegram.modalTitle', { name: item.name })}
        onCancel={onClose}
        footer={null}
      >
        {code && (
          <Space direction="vertical" size="middle">
            <Typography.Paragraph>{t('telegram.howTo', { name: item.name })}</Typography.Paragraph>
            <Typography.Paragraph copyable={{ text: code.url }} className="lr-collection-value">
              <Typography.Link href={code.url} target="_blank" rel="noreferrer" data-testid="telegram-link-url">
                {code.url}
              </Typography.Link>
            </Typography.Paragraph>
            <Typography.Text type="secondary">
              {t('telegram.orCode', { bot: `@${code.botUsername}` })}{' '}
              <Typography.Text code copyable data-testid="telegram-link-code">
                {`/start ${code.code}`}
              </Typography.Text>
            </Typography.Text>
            <Typography.Text type="secondary">
              {t('telegram.validUntil', { time: formatDateTime(code.expiresAt) })}
            </Typography.Text>
            <Button type="primary" onClick={onClose}>
              {t('telegram.done')}
            </Button>
          </Space>
        )}
      </Modal>
    </>
  );
}
