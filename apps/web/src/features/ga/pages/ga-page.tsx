import '../ga.css';
import { useTranslation } from 'react-i18next';
import { DestinationListPage } from '../../../components/integrations/destination-list-page';

export const GA_NAME = 'Google Analytics 4';

/** /admin/integrations/ga: the account's GA4 connections, and a new one. */
export function GaPage() {
  const { t } = useTranslation('ga');
  return (
    <DestinationListPage
      type="ga"
      title={GA_NAME}
      subtitle={t('list.subtitle')}
      connectLabel={t('list.connect')}
      defaultName={GA_NAME}
    />
  );
}
