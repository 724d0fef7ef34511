import { useTranslation } from 'react-i18next';
import { CrmIntegrationView } from '../components/crm-integration-view';
import { CrmReactionNote } from '../components/crm-reaction-note';
import { PD_NAME, useStartPipedriveConnect } from '../components/pipedrive-connect';
import { PipedriveFieldsCard } from '../components/pipedrive-fields-card';
import { PipedriveSettingsCard } from '../components/pipedrive-settings-card';
import { PipedriveTokenForm } from '../components/pipedrive-token-form';
import { PipedriveWebhooksCard } from '../components/pipedrive-webhooks-card';
import { usePipedriveUsers } from '../queries';

/** /admin/integrations/pipedrive/:id */
export function PipedriveIntegrationPage() {
  const { t } = useTranslation('crm');
  const connect = useStartPipedriveConnect();

  return (
    <CrmIntegrationView
      type="pipedrive"
      crmName={PD_NAME}
      connect={connect}
      connectionExtra={(item) => (
        <>
          <PipedriveTokenForm integration={item} />
          <CrmReactionNote integration={item} crmName={PD_NAME} />
        </>
      )}
      settingsCard={PipedriveSettingsCard}
      fieldsCard={PipedriveFieldsCard}
      useUsers={usePipedriveUsers}
      moreTabs={(item) => [
        { key: 'webhooks', label: t('tabs.webhooks'), children: <PipedriveWebhooksCard integration={item} /> },
      ]}
    />
  );
}
