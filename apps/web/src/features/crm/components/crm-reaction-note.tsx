import '../crm.css';
import type { Integration } from '@leadrelay/shared';
import { Alert, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ReasonDetails } from '../../../components/integrations/reason-details';
import { reasonText } from '../../../components/integrations/status-tag';
import { formatDateTime } from '../../../lib/format';
import { useCrmWatch } from '../queries';

/**
 * Speed to lead (issue 19): a stage change in the CRM counts as the lead's first reaction, through
 * a webhook LeadRelay sets up at the CRM itself; once connected, whether it is set up, or why the
 * CRM refused it and when it is tried again.
 */
export function CrmReactionNote({ integration, crmName }: { integration: Integration; crmName: string }) {
  const { t } = useTranslation('crm');
  const watch = useCrmWatch(integration);
  const state = integration.isConnected ? watch.data?.state : undefined;
  return (
    <div className="lr-crm-reaction-note" data-testid="crm-reaction-note">
      <Typography.Paragraph type="secondary">{t('connection.reactionNote', { crm: crmName })}</Typography.Paragraph>
      {state === 'watching' && (
        <Typography.Text type="success" data-testid="crm-watch-state">
          {t('connection.watch.watching', { crm: crmName })}
        </Typography.Text>
      )}
      {state === 'pending' && (
        <Typography.Text type="secondary" data-testid="crm-watch-state">
          {t('connection.watch.pending', { crm: crmName })}
        </Typography.Text>
      )}
      {state === 'failed' && watch.data && (
        <Alert
          type="warning"
          showIcon
          data-testid="crm-watch-state"
          title={t('connection.watch.failed', { crm: crmName })}
          description={
            <>
              <div className="lr-break">{reasonText(watch.data.reason ?? '')}</div>
              {watch.data.nextTryAt && (
                <div>{t('connection.watch.nextTry', { time: formatDateTime(watch.data.nextTryAt), crm: crmName })}</div>
              )}
              <ReasonDetails reason={watch.data.reason} />
            </>
          }
        />
      )}
    </div>
  );
}
