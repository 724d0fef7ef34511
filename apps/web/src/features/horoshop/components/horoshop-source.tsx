import '../horoshop.css';
import { ShopOutlined } from '@ant-design/icons';
import type { HoroshopState, Integration } from '@leadrelay/shared';
import { Alert, Button, Card, Descriptions, Popconfirm, Skeleton, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { reasonText } from '../../../components/integrations/status-tag';
import { PermissionGuard } from '../../../components/permission-guard';
import { errorMessage } from '../../../lib/errors';
import { formatDateTime } from '../../../lib/format';
import { i18n } from '../../../lib/i18n';
import { useApp } from '../../../lib/use-app';
import {
  useHoroshopStateQuery,
  usePollNowMutation,
  useRegisterWebhookMutation,
  useRemoveWebhookMutation,
} from '../queries';
import { ConnectForm } from './connect-form';
import { OrdersCard } from './orders-card';

/** A poll error for people: the poll's own codes here, server error codes as everywhere else. */
function pollError(code: string): string {
  const key = `horoshop:poll.errors.${code}`;
  return i18n.exists(key) ? i18n.t(key as 'horoshop:poll.errors.HOROSHOP_POLL_TRUNCATED') : reasonText(code);
}

function WebhookSection({ integration, state }: { integration: Integration; state: HoroshopState }) {
  const { t } = useTranslation('horoshop');
  const { message } = useApp();
  const register = useRegisterWebhookMutation(integration._id);
  const remove = useRemoveWebhookMutation(integration._id);
  const { webhook } = state;
  const run = async (action: () => Promise<unknown>, done: string) => {
    try {
      await action();
      void message.success(done);
    } catch (err) {
      void message.error(errorMessage(err));
    }
  };
  const text =
    webhook.status === 'active'
      ? t('webhook.active', { date: formatDateTime(webhook.registeredAt ?? '') })
      : webhook.status === 'removed'
        ? t('webhook.removed', { date: formatDateTime(webhook.removedAt ?? '') })
        : t('webhook.none');
  return (
    <section className="lr-hs-section" data-testid="horoshop-webhook" data-status={webhook.status}>
      <Typography.Text strong>{t('webhook.title')}</Typography.Text>
      <Typography.Paragraph type={webhook.status === 'active' ? undefined : 'warning'} className="lr-hs-line">
        {text}
      </Typography.Paragraph>
      <div className="lr-hs-buttons">
        <PermissionGuard>
          <Button
            type={webhook.status === 'active' ? 'default' : 'primary'}
            loading={register.isPending}
            onClick={() => run(() => register.mutateAsync(), t('webhook.registered'))}
          >
            {webhook.status === 'active' ? t('webhook.registerAgain') : t('webhook.register')}
          </Button>
        </PermissionGuard>
        {webhook.status === 'active' && (
          <PermissionGuard>
            <Popconfirm
              title={t('webhook.removeConfirm')}
              onConfirm={() => run(() => remove.mutateAsync(), t('webhook.removedOk'))}
            >
              <Button danger loading={remove.isPending}>
                {t('webhook.remove')}
              </Button>
            </Popconfirm>
          </PermissionGuard>
        )}
      </div>
      <Typography.Paragraph type="secondary" className="lr-hint lr-hs-line">
        {t('webhook.delay')}
      </Typography.Paragraph>
    </section>
  );
}

function PollSection({ integration, state }: { integration: Integration; state: HoroshopState }) {
  const { t } = useTranslation('horoshop');
  const { message } = useApp();
  const poll = usePollNowMutation(integration._id);
  const { lastPollAt, lastError } = state.poll;
  const onCheck = async () => {
    try {
      const { data } = await poll.mutateAsync();
      if (data.poll.lastError) void message.warning(t('poll.failed'));
      else void message.success(t('poll.checked'));
    } catch (err) {
      void message.error(errorMessage(err));
    }
  };
  return (
    <section className="lr-hs-section" data-testid="horoshop-poll">
      <Typography.Text strong>{t('poll.title')}</Typography.Text>
      <Typography.Paragraph type="secondary" className="lr-hs-line">
        {integration.active ? t('poll.every') : t('poll.inactive')}
      </Typography.Paragraph>
      <Typography.Paragraph className="lr-hs-line">
        {lastPollAt ? t('poll.last', { date: formatDateTime(lastPollAt) }) : t('poll.never')}
      </Typography.Paragraph>
      {lastError && (
        <Alert className="lr-mb" type="warning" showIcon title={t('poll.failed')} description={pollError(lastError)} />
      )}
      <PermissionGuard>
        <Button onClick={onCheck} loading={poll.isPending} disabled={!integration.active}>
          {t('poll.now')}
        </Button>
      </PermissionGuard>
    </section>
  );
}

/**
 * A Horoshop source's settings tab: the connection (shop, access; the form to connect or change
 * it), the order webhook at the shop, the 5-minute check for missed orders, and the last orders.
 */
export function HoroshopSource({ integration }: { integration: Integration }) {
  const { t } = useTranslation('horoshop');
  const state = useHoroshopStateQuery(integration._id);
  const [editing, setEditing] = useState(false);

  if (state.isPending) {
    return (
      <Card title={t('connection.title')}>
        <Skeleton active />
      </Card>
    );
  }
  if (state.isError) {
    return (
      <Card title={t('connection.title')}>
        <Alert type="error" showIcon title={errorMessage(state.error)} />
      </Card>
    );
  }
  const data = state.data;
  const connected = data.authMode !== 'none' && !!data.shopUrl;

  return (
    <div className="lr-hs-stack">
      <Card
        title={
          <span>
            <ShopOutlined aria-hidden className="lr-hs-mark" /> {t('connection.title')}
          </span>
        }
        data-testid="horoshop-source"
      >
        {connected ? (
          <Descriptions column={1} size="small" className="lr-mb">
            <Descriptions.Item label={t('connection.shop')}>
              <a href={data.shopUrl ?? undefined} target="_blank" rel="noreferrer" className="lr-break">
                {new URL(data.shopUrl ?? '').host}
              </a>
            </Descriptions.Item>
            <Descriptions.Item label={t('connection.access')}>
              {data.authMode === 'password' ? (
                <span className="lr-break">{t('connection.byPassword', { login: data.login ?? '' })}</span>
              ) : (
                <Tag color="gold">{t('connection.byToken')}</Tag>
              )}
            </Descriptions.Item>
          </Descriptions>
        ) : (
          <Typography.Paragraph type="secondary">{t('connection.intro')}</Typography.Paragraph>
        )}
        {connected && !editing ? (
          <Button onClick={() => setEditing(true)}>{t('connection.change')}</Button>
        ) : (
          <>
            <ConnectForm integrationId={integration._id} shopUrl={data.shopUrl} onDone={() => setEditing(false)} />
            {connected && (
              <Button type="link" className="lr-hs-cancel" onClick={() => setEditing(false)}>
                {t('connection.cancel')}
              </Button>
            )}
          </>
        )}
        {connected && (
          <>
            <WebhookSection integration={integration} state={data} />
            <PollSection integration={integration} state={data} />
          </>
        )}
      </Card>
      <OrdersCard orders={data.orders} />
    </div>
  );
}
