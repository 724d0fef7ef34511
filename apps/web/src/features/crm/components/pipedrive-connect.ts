import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../lib/errors';
import { useApp } from '../../../lib/use-app';
import { usePipedriveAuthUrl } from '../queries';
import { reserveTab } from './new-tab';

export const PD_NAME = 'Pipedrive';

/**
 * Pipedrive's authorisation opens in a new tab; it returns to /admin/integrations/pipedrive/connect
 * there, and this tab hears of the new connection through UPDATE_INTEGRATION.
 */
export function useStartPipedriveConnect() {
  const { t } = useTranslation('crm');
  const { message } = useApp();
  const authUrl = usePipedriveAuthUrl();
  const start = async (integrationId: string, tab = reserveTab()) => {
    try {
      tab.go(await authUrl.mutateAsync(integrationId));
      void message.info(t('pipedrive.tabOpened'));
      return true;
    } catch (err) {
      tab.close();
      void message.error(errorMessage(err));
      return false;
    }
  };
  return { start, isPending: authUrl.isPending };
}
