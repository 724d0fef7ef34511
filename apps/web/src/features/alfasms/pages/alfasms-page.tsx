import '../alfasms.css';
import { useTranslation } from 'react-i18next';
import { DestinationListPage } from '../../../components/integrations/destination-list-page';

export const SMS_NAME = 'AlphaSMS';

/** /admin/integrations/alfasms: the account's AlphaSMS connections, and a new one. */
export function AlfasmsPage() {
  const { t } = useTranslation('sms');
  return (
    <DestinationListPage
      type="alfasms"
      title={SMS_NAME}
      subtitle={t('list.subtitle')}
      connectLabel={t('list.connect')}
      defaultName={SMS_NAME}
    />
  );
}
