import { SendOutlined } from '@ant-design/icons';
import type { FbLeadForm } from '@leadrelay/shared';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { hookKeys } from '../../hooks/queries';
import { submitEmulatorLead } from '../api';
import { useEmulatorsQuery } from '../queries';
import { sampleFieldData } from './fb-sample';

interface Props {
  formId: string;
  form: Pick<FbLeadForm, 'questions'> | undefined;
  isSubscribed: boolean;
}

/**
 * Demo installs (GET /api/emulators names the Graph emulator): a person "fills in" the form at the
 * emulator, which sends Facebook's signed webhook; the lead then appears in the log below. Elsewhere
 * the leads come from Facebook itself, so there is only a hint.
 */
export function FbTestLead({ formId, form, isSubscribed }: Props) {
  const { t } = useTranslation('facebook');
  const qc = useQueryClient();
  const emulators = useEmulatorsQuery();
  const [state, setState] = useState<'idle' | 'sending' | 'sent' | 'failed'>('idle');
  const url = emulators.data?.facebook?.url;

  if (!url) {
    return (
      <Typography.Paragraph type="secondary" className="lr-hint">
        {t('testLead.realHint')}
      </Typography.Paragraph>
    );
  }
  const onSend = async () => {
    setState('sending');
    try {
      await submitEmulatorLead(url, formId, form ? sampleFieldData(form) : undefined);
      setState('sent');
      // The realtime channel refreshes the log too; this covers a tab without it.
      setTimeout(() => void qc.invalidateQueries({ queryKey: hookKeys.all }), 1500);
    } catch {
      setState('failed');
    }
  };

  return (
    <div className="lr-test-lead">
      <div className="lr-test-lead-row">
        <Button icon={<SendOutlined />} onClick={onSend} loading={state === 'sending'} disabled={!formId}>
          {t('testLead.send')}
        </Button>
        <Typography.Text type="secondary" className="lr-hint">
          {t('testLead.demoHint')}
        </Typography.Text>
      </div>
      {!isSubscribed && <Alert type="warning" showIcon title={t('source.notSubscribed')} />}
      {state === 'sent' && <Alert type="success" showIcon role="status" title={t('testLead.sent')} />}
      {state === 'failed' && <Alert type="error" showIcon title={t('somethingWrong')} />}
    </div>
  );
}
