import type { Integration } from '@leadrelay/shared';
import { useTranslation } from 'react-i18next';
import { useSaveSettingsMutation } from '../../lib/connectors/queries';
import { errorMessage } from '../../lib/errors';
import { reasonText } from '../../lib/integrations/reasons';
import { useApp } from '../../lib/use-app';
import { type Values, withoutEmpty } from './field-values';

/**
 * Saves one card's part of the settings merged into the rest (the server replaces the whole
 * object), empty values left out: "Saved successfully", and the connection check's failure if the
 * save found one, or the translated error; true when saved.
 */
export function useSaveSettingsPart(integration: Integration) {
  const { t } = useTranslation('crm');
  const { message } = useApp();
  const save = useSaveSettingsMutation(integration._id);
  const run = async (part: Values): Promise<boolean> => {
    try {
      const result = await save.mutateAsync({
        settings: withoutEmpty({ ...(integration.settings as Values), ...part }),
      });
      void message.success(t('ui.saved_success'));
      if (!result.ok && result.reason)
        void message.warning(`${t('connection.checkFailed')}: ${reasonText(result.reason)}`);
      return true;
    } catch (err) {
      void message.error(errorMessage(err));
      return false;
    }
  };
  return { run, isPending: save.isPending };
}
