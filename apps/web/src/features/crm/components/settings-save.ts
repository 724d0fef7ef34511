import type { Integration } from '@leadrelay/shared';
import { useTranslation } from 'react-i18next';
import { reasonText } from '../../../components/integrations/status-tag';
import { errorMessage } from '../../../lib/errors';
import { useApp } from '../../../lib/use-app';
import { useSaveCrmSettings } from '../queries';

/** Drops undefined, null and empty strings and arrays, so a cleared picker means "not set". */
export function compact<T extends Record<string, unknown>>(values: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(values).filter(
      ([, v]) => v !== undefined && v !== null && v !== '' && !(Array.isArray(v) && v.length === 0),
    ),
  ) as Partial<T>;
}

/**
 * Saves one card's part of the settings merged into the rest (the server replaces the whole
 * object): the spec's ui.saved_success toast, or the translated error; true when saved.
 */
export function useSaveSettingsPart(integration: Integration) {
  const { t } = useTranslation('crm');
  const { message } = useApp();
  const save = useSaveCrmSettings(integration);
  const run = async (part: Record<string, unknown>, removed: string[] = []): Promise<boolean> => {
    const merged: Record<string, unknown> = { ...integration.settings, ...part };
    for (const key of removed) delete merged[key];
    try {
      const result = await save.mutateAsync(compact(merged));
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
