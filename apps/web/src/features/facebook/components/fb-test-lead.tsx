import { SendOutlined } from '@ant-design/icons';
import type { FbLeadForm } from '@leadrelay/shared';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../lib/errors';
import { hookKeys } from '../../../lib/hooks/queries';
import { facebookApi } from '../api';
import { sampleFieldData } from './fb-sample';

interface Props {
  integrationId: string;
  formId: string;
  form: Pick<FbLeadForm, 'questions'> | undefined;
  isSubscribed: boolean;
}

/**
 * Graph's own test_leads on the form (what Meta's Lead Ads Testing Tool does, and what the Graph
 * emulator does in a demo install): Facebook then sends the lead's webhook like a real one, and it
 * appears in the log below.
 */
export function FbTestLead({ integrationId, formId, form, isSubscribed }: Props) {
  const { t } = useTranslation('facebook');
  const qc = useQueryClient();
  const [state, setState] = useState<'idle' | 'sending' | 'sent' | 'failed'>('idle');
  const [failure, setFailure] = useState<string>();

  const onSend = async () => {
    setState('sending');
    try {
      await facebookApi.testLead(integrationId, form ? sampleFieldData(form) : undefined);
      setState('sent');
      // The realtime channel refreshes the log too; this covers a tab without it.
      setTimeout(() => void qc.invalidateQueries({ queryKey: hookKeys.all }), 1500);
    } catch (e) {
      setFailure(errorMessage(e));
      setState('failed');
    }
  };

  return (
    <div className="lr-test-lead">
      <div className="lr-test-lead-row">
        <Button icon={<SendOutlined aria-hidden />} onClick={onSend} loading={state === 'sending'} disabled={!formId}>
          {t('testLead.send')}
        </Button>
        <Typography.Text type="secondary" className="lr-hint">
          {t('testLead.hint')}
        </Typography.Text>
      </div>
      {!isSubscribed && <Alert type="warning" showIcon title={t('source.notSubscribed')} />}
      {state === 'sent' && <Alert type="success" showIcon role="status" title={t('testLead.sent')} />}
      {state === 'failed' && <Alert type="error" showIcon title={failure ?? t('somethingWrong')} />}
    </div>
  );
}
