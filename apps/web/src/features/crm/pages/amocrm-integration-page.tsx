import { AmoBackups } from '../components/amo-backups';
import { AMO_NAME, useStartAmoConnect } from '../components/amo-connect';
import { AmoFieldsCard } from '../components/amo-fields-card';
import { AmoSettingsCard } from '../components/amo-settings-card';
import { CrmIntegrationView } from '../components/crm-integration-view';
import { useOAuthReturn } from '../components/use-oauth-return';
import { useAmoUsers } from '../queries';

/** /admin/integrations/amocrm/:id */
export function AmocrmIntegrationPage() {
  const connect = useStartAmoConnect();
  useOAuthReturn(AMO_NAME);

  return (
    <CrmIntegrationView
      type="amocrm"
      crmName={AMO_NAME}
      connect={connect}
      connectionExtra={(item) => <AmoBackups integration={item} />}
      settingsCard={AmoSettingsCard}
      fieldsCard={AmoFieldsCard}
      useUsers={useAmoUsers}
    />
  );
}
