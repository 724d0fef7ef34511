import { useTranslation } from 'react-i18next';
import { DestinationListPage } from '../../../components/integrations/destination-list-page';

export const TELEGRAM_NAME = 'Telegram';

/** /admin/integrations/telegram: the account's Telegram bots, and a new one. */
export function TelegramPage() {
  const { t } = useTranslation('telegram');
  return (
    <DestinationListPage
      type="telegram"
      title={TELEGRAM_NAME}
      subtitle={t('list.subtitle')}
      connectLabel={t('list.connect')}
      defaultName={t('list.defaultName')}
    />
  );
}
