import '../facebook.css';
import type { Integration } from '@leadrelay/shared';
import { Alert } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MappingSection } from '../../../components/integrations/mapping-section';
import { useFbConnectionsQuery, useFbPageStateQuery } from '../queries';
import { STANDARD_FORM, samplePayload } from './fb-sample';
import { fbSettingsOf } from './fb-settings';
import { FbTestLead } from './fb-test-lead';

/**
 * The generic mapping editor with a lead of this integration's own form as its sample, so the
 * incoming fields offered are the form's questions (and full_name, email, phone_number, fb_*).
 */
export function FbMapping({ integration }: { integration: Integration }) {
  const { t } = useTranslation('facebook');
  const { fbConnectionId, fbPageId, fbFormId } = fbSettingsOf(integration);
  const connections = useFbConnectionsQuery();
  const page = connections.data?.find((c) => c._id === fbConnectionId)?.pages.find((p) => p.id === fbPageId);
  const state = useFbPageStateQuery(fbConnectionId, fbPageId, Boolean(page));
  const form = state.data?.leadForms.find((f) => f.id === fbFormId);
  const [edited, setEdited] = useState<string | null>(null);
  const sample = edited ?? JSON.stringify(samplePayload(form ?? { ...STANDARD_FORM, id: fbFormId }), null, 2);

  return (
    <>
      {!form && connections.isSuccess && (!page || state.isSuccess || state.isError) && (
        <Alert className="lr-mb" type="info" showIcon title={t('mapping.standardOnly')} />
      )}
      <MappingSection
        integration={integration}
        sample={sample}
        onSampleChange={setEdited}
        testLead={
          <FbTestLead
            integrationId={integration._id}
            formId={fbFormId}
            form={form}
            isSubscribed={state.data?.isSubscribed ?? page?.isSubscribed ?? false}
          />
        }
      />
    </>
  );
}
