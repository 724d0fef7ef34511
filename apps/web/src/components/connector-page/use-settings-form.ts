import type { Integration } from '@leadrelay/shared';
import { Form } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSaveSettingsMutation } from '../../lib/connectors/queries';
import { useConnectMutation } from '../../lib/integrations/queries';
import { useFormGuard } from '../../lib/unsaved-changes';
import { useApp } from '../../lib/use-app';
import type { Values } from './field-values';
import type { Say } from './words';

export type { Values };

/** What a card of a connector's page is given: the integration, its spec in the manifest, its words. */
export interface CardProps<Card> {
  integration: Integration;
  card: Card;
  say: Say;
}

/**
 * A card that saves the integration's auth or settings (PUT …/connect): its form, the leave prompt's
 * guard, the call (`connect` with credentials; `save` with settings alone, which leaves the
 * connector's lists as they are), the saved settings, and the "saved" and error toasts.
 */
export function useSettingsForm(integration: Integration) {
  const { t } = useTranslation('common');
  const { message } = useApp();
  const [form] = Form.useForm<Values>();
  const guard = useFormGuard();
  const connect = useConnectMutation(integration._id);
  const save = useSaveSettingsMutation(integration._id);
  return {
    form,
    guard,
    connect,
    save,
    message,
    saved: integration.settings as Values,
    toastSaved: () => void message.success(t('saved')),
  };
}
