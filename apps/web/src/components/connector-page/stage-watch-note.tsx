import type { Integration } from '@leadrelay/shared';
import { Alert, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../lib/format';
import { useCrmWatchQuery } from '../../lib/integrations/crm-watch';
import { reasonText } from '../../lib/integrations/reasons';
import { ReasonDetails } from '../integrations/reason-details';
import { usePage } from './page-context';

/**
 * Speed to lead (issue 19): a stage change in the CRM counts as the lead's first reaction, through
 * a webhook LeadRelay sets up at the CRM itself; once connected, whether it is set up, or why the
 * CRM refused it and when it is tried again.
 */
export function StageWatchNote({ integration }: { integration: Integration }) {
  const { t } = useTranslation('crm');
  const crm = usePage().manifest.name;
  const watch = useCrmWatchQuery(integration);
  const state = integration.isConnected ? watch.data?.state : undefined;
  return (
    <div className="lr-crm-reaction-note" data-testid="crm-reaction-note">
      <Typography.Paragraph type="secondary">{t('connection.reactionNote', { crm })}</Typography.Paragraph>
      {state === 'watching' && (
        <Typography.Text type="success" data-testid="crm-watch-state">
          {t('connection.watch.watching', { crm })}
        </Typography.Text>
      )}
      {state === 'pending' && (
        <Typography.Text type="secondary" data-testid="crm-watch-state">
          {t('connection.watch.pending', { crm })}
        </Typography.Text>
      )}
      {state === 'failed' && watch.data && (
        <Alert
          type="warning"
          showIcon
          data-testid="crm-watch-state"
          title={t('connection.watch.failed', { crm })}
          description={
            <>
              <div className="lr-break">{reasonText(watch.data.reason ?? '')}</div>
              {watch.data.nextTryAt && (
                <div>{t('connection.watch.nextTry', { time: formatDateTime(watch.data.nextTryAt), crm })}</div>
              )}
              <ReasonDetails reason={watch.data.reason} />
            </>
          }
        />
      )}
    </div>
  );
}
