import { HELD_RETENTION_DAYS } from '@leadrelay/shared';
import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { displayTimeZone, intlLocale } from '../../../lib/format';
import { useHookTotalQuery } from '../../../lib/hooks/queries';
import { localePath } from '../../../lib/locale';

const formatDay = (iso: string) =>
  new Intl.DateTimeFormat(intlLocale(), { dateStyle: 'long', timeZone: displayTimeZone() }).format(new Date(iso));

/**
 * While the account has held leads (plan expired, or this month's limit reached): how many and why,
 * what releases them, when the oldest may be given up, and the way to the plans page.
 */
export function HeldNotice() {
  const { t } = useTranslation('dashboard');
  const { t: tc } = useTranslation('common');
  const { data } = useHookTotalQuery();
  const hold = data?.hold;
  if (!hold || !data.held) return null;
  return (
    <Alert
      className="lr-mb"
      type="warning"
      showIcon
      role="alert"
      data-testid="held-notice"
      title={t(`held.${hold.reason}`, { count: data.held })}
      description={
        <>
          <p className="lr-held-text">{t(`held.text_${hold.reason}`)}</p>
          <p className="lr-held-text">
            {t('held.retention', { days: tc('days', { count: HELD_RETENTION_DAYS }), date: formatDay(hold.dropsAt) })}
          </p>
          <Link to={localePath('/admin/plan')}>{t('held.action')}</Link>
        </>
      }
    />
  );
}
