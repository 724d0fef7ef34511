import { SendOutlined } from '@ant-design/icons';
import type { Integration } from '@leadrelay/shared';
import { Alert, Button, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../lib/errors';
import { useSendTestLeadMutation, useWebhookUrlQuery } from '../../lib/integrations/queries';
import { parseSample } from './mapping-draft';

const STATUS_COLOR: Record<string, string> = {
  pending: 'processing',
  accepted: 'blue',
  delivered: 'green',
  filtered: 'orange',
  duplicate: 'default',
  held: 'volcano',
};

/** Posts the preview sample to the integration's own webhook URL and shows the answer. */
export function TestLead({ integration, sample }: { integration: Integration; sample: string }) {
  const { t } = useTranslation('integrations');
  const hook = useWebhookUrlQuery(integration._id, true);
  const send = useSendTestLeadMutation();
  const parsed = parseSample(sample);

  const onSend = () => {
    if (!hook.data || !parsed.ok) return;
    send.mutate({ token: hook.data.token, sample: parsed.payload });
  };

  return (
    <div className="lr-test-lead">
      <div className="lr-test-lead-row">
        <Button
          icon={<SendOutlined aria-hidden />}
          onClick={onSend}
          loading={send.isPending}
          disabled={!hook.data || !parsed.ok || !integration.active}
        >
          {t('testLead.send')}
        </Button>
        <Typography.Text type="secondary" className="lr-hint">
          {integration.active ? t('testLead.hint') : t('webhook.inactive')}
        </Typography.Text>
      </div>
      {send.isError && <Alert type="error" showIcon title={errorMessage(send.error)} />}
      {send.data && (
        <Alert
          type={['filtered', 'duplicate', 'held'].includes(send.data.status) ? 'warning' : 'success'}
          showIcon
          role="status"
          title={
            <span>
              {t('testLead.result')} {/* own-keys: a hook status of our server */}
              <Tag color={STATUS_COLOR[send.data.status] ?? 'default'}>
                {t(`testLead.statuses.${send.data.status}` as 'testLead.statuses.pending', {
                  defaultValue: send.data.status,
                })}
              </Tag>
            </span>
          }
          description={
            <>
              {t('testLead.hookId')}{' '}
              <Typography.Text code copyable>
                {send.data.hookId}
              </Typography.Text>
              {send.data.status === 'duplicate' && <div>{t('testLead.duplicateHint')}</div>}
              {send.data.status === 'held' && <div>{t('testLead.heldHint')}</div>}
            </>
          }
        />
      )}
    </div>
  );
}
