import { DisconnectOutlined, SendOutlined } from '@ant-design/icons';
import type { TelegramLinkCode } from '@leadrelay/shared';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Card, Popconfirm, Skeleton, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PermissionGuard } from '../../../components/permission-guard';
import { errorMessage } from '../../../lib/errors';
import { formatDateTime } from '../../../lib/format';
import { useApp } from '../../../lib/use-app';
import {
  guardianKeys,
  useOwnerTelegramLinkCodeMutation,
  useOwnerTelegramQuery,
  useOwnerTelegramUnlinkMutation,
} from '../queries';

/**
 * The owner's own Telegram for the guardian's notices: linked as @name (with unlink), "Link my
 * Telegram" (a one-time deep link and code), or, with no bot connected, where to connect one.
 */
export function GuardianTelegramCard() {
  const { t } = useTranslation('guardian');
  const { t: tc } = useTranslation('common');
  const { message } = useApp();
  const qc = useQueryClient();
  const state = useOwnerTelegramQuery();
  const makeCode = useOwnerTelegramLinkCodeMutation();
  const unlink = useOwnerTelegramUnlinkMutation();
  const [code, setCode] = useState<TelegramLinkCode | null>(null);

  const onLink = async () => {
    try {
      setCode(await makeCode.mutateAsync());
    } catch (err) {
      void message.error(errorMessage(err));
    }
  };
  const onUnlink = async () => {
    try {
      await unlink.mutateAsync();
      void message.success(t('telegram.unlinked'));
    } catch (err) {
      void message.error(errorMessage(err));
    }
  };
  const onDone = () => {
    setCode(null);
    // The owner may have pressed Start meanwhile.
    void qc.invalidateQueries({ queryKey: guardianKeys.telegram });
  };

  const body = () => {
    const data = state.data;
    if (!data) return <Skeleton active paragraph={{ rows: 2 }} />;
    if (data.linked) {
      return (
        <Space direction="vertical" size="small">
          <Typography.Text type="secondary">{t('telegram.linkedHint')}</Typography.Text>
          <Space size={4} wrap>
            <Tag color="blue" icon={<SendOutlined aria-hidden />} data-testid="guardian-telegram-linked">
              {data.linked.username ? `@${data.linked.username}` : t('telegram.linked')}
            </Tag>
            <PermissionGuard>
              <Popconfirm
                title={t('telegram.unlinkConfirm')}
                okText={t('telegram.unlink')}
                cancelText={tc('cancel')}
                onConfirm={onUnlink}
              >
                <Button size="small" icon={<DisconnectOutlined aria-hidden />} loading={unlink.isPending}>
                  {t('telegram.unlink')}
                </Button>
              </Popconfirm>
            </PermissionGuard>
          </Space>
        </Space>
      );
    }
    if (!data.bot) {
      return (
        <Typography.Paragraph type="secondary" data-testid="guardian-telegram-no-bot">
          {t('telegram.noBot')} <Link to="/admin/integrations/telegram">{t('telegram.connectBot')}</Link>
        </Typography.Paragraph>
      );
    }
    if (code) {
      return (
        <Space direction="vertical" size="small" className="lr-guardian-telegram-code">
          <Typography.Text>{t('telegram.howTo')}</Typography.Text>
          <Typography.Paragraph copyable={{ text: code.url }} className="lr-break">
            <Typography.Link href={code.url} target="_blank" rel="noreferrer" data-testid="guardian-telegram-url">
              {code.url}
            </Typography.Link>
          </Typography.Paragraph>
          <Typography.Text type="secondary">
            {t('telegram.orCode', { bot: `@${code.botUsername}` })}{' '}
            <Typography.Text code copyable data-testid="guardian-telegram-code">
              {`/start ${code.code}`}
            </Typography.Text>
          </Typography.Text>
          <Typography.Text type="secondary">
            {t('telegram.validUntil', { time: formatDateTime(code.expiresAt) })}
          </Typography.Text>
          <Button type="primary" onClick={onDone}>
            {t('telegram.done')}
          </Button>
        </Space>
      );
    }
    return (
      <Space direction="vertical" size="small">
        <Typography.Text type="secondary">{t('telegram.hint', { bot: `@${data.bot.botUsername}` })}</Typography.Text>
        <PermissionGuard>
          <Button icon={<SendOutlined aria-hidden />} loading={makeCode.isPending} onClick={onLink}>
            {t('telegram.link')}
          </Button>
        </PermissionGuard>
      </Space>
    );
  };

  return (
    <Card title={t('telegram.title')} data-testid="guardian-telegram">
      {body()}
    </Card>
  );
}
