import '../crm.css';
import type { Integration } from '@leadrelay/shared';
import { useTranslation } from 'react-i18next';
import { DestinationShell, type ShellTab } from '../../../components/integrations/destination-shell';

export type TabItem = ShellTab;

interface Props {
  type: 'amocrm' | 'pipedrive' | 'uspacy';
  crmName: string;
  tabs: (integration: Integration) => TabItem[];
}

/** The frame of a CRM integration page (the shared destination frame with the CRM's words). */
export function CrmPageShell({ type, crmName, tabs }: Props) {
  const { t } = useTranslation('crm');
  return (
    <DestinationShell
      type={type}
      typeName={crmName}
      backLabel={t('page.back', { crm: crmName })}
      notConnected={t('page.notConnected', { crm: crmName })}
      tabs={tabs}
    />
  );
}
