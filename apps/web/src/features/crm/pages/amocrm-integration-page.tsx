import { useTranslation } from 'react-i18next';
import { useOAuthReturn } from '../../../lib/use-oauth-return';
import { AmoBackups } from '../components/amo-backups';
import { AMO_NAME, useStartAmoConnect } from '../components/amo-connect';
import { AmoFieldsCard } from '../components/amo-fields-card';
import { AmoSettingsCard } from '../components/amo-settings-card';
import { CrmIntegrationView } from '../components/crm-integration-view';
import { CrmReactionNote } from '../components/crm-reaction-note';
import { useAmoUsers } from '../queries';

/** /admin/integrations/amocrm/:id */
export function AmocrmIntegrationPage() {
  const { t } = useTranslation('crm');
  const connect = useStartAmoConnect();
  useOAuthReturn({
    done: t('connection.done', { crm: AMO_NAME }),
    failed: t('connection.failed', { crm: AMO_NAME }),
  });

  return (
    <CrmIntegrationView
      type="amocrm"
      crmName={AMO_NAME}
      connect={connect}
      connectionExtra={(item) => (
        <>
          <AmoBackups integration={item} />
          <CrmReactionNote integration={item} crmName={AMO_NAME} />
        </>
      )}
      settingsCard={AmoSettingsCard}
      fieldsCard={AmoFieldsCard}
      useUsers={useAmoUsers}
    />
  );
}
