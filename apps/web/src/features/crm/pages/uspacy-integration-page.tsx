import type { Integration } from '@leadrelay/shared';
import { useState } from 'react';
import { CrmIntegrationView } from '../components/crm-integration-view';
import { UspacyAccount } from '../components/uspacy-account';
import { US_NAME } from '../components/uspacy-connect-fields';
import { UspacyReconnectModal } from '../components/uspacy-connect-modal';
import { UspacyFieldsCard } from '../components/uspacy-fields-card';
import { UspacySettingsCard } from '../components/uspacy-settings-card';
import { useUspacyUsers } from '../queries';

/** /admin/integrations/uspacy/:id */
export function UspacyIntegrationPage() {
  const [connecting, setConnecting] = useState(false);
  const extra = (item: Integration) => (
    <>
      <UspacyAccount integration={item} />
      <UspacyReconnectModal integration={item} open={connecting} onClose={() => setConnecting(false)} />
    </>
  );
  return (
    <CrmIntegrationView
      type="uspacy"
      crmName={US_NAME}
      connect={{ start: () => setConnecting(true), isPending: false }}
      connectionExtra={extra}
      settingsCard={UspacySettingsCard}
      fieldsCard={UspacyFieldsCard}
      useUsers={useUspacyUsers}
    />
  );
}
