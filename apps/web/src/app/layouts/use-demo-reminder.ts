import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useMe } from '../../lib/current-user';
import { takeDemoReminder } from '../../lib/demo-reminder';
import { useApp } from '../../lib/use-app';

/** Shows DEMO_DAYS_LEFT_WARNING / DEMO_EXPIRED at most once a day. */
export function useDemoReminder(): void {
  const { data: user } = useMe();
  const { notification } = useApp();
  const { t } = useTranslation();
  useEffect(() => {
    if (!user) return;
    const reminder = takeDemoReminder(user);
    if (!reminder) return;
    const text =
      reminder.code === 'DEMO_EXPIRED'
        ? t('demo.DEMO_EXPIRED')
        : t('demo.DEMO_DAYS_LEFT_WARNING', { count: reminder.count });
    notification.warning({ key: 'demo-reminder', title: text, placement: 'topRight', duration: 8 });
  }, [user, notification, t]);
}
