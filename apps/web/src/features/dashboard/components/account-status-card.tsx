import { daysLeft, headerWarning, isDemo, isUserActive, type User } from '@leadrelay/shared';
import { Descriptions, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Panel } from '../../../components/panel';
import { intlLocale } from '../../../lib/format';
import { localePath } from '../../../lib/locale';
import { paidPlanTitle } from '../../../lib/plans';

function formatDate(iso: string): string {
  return new Intl.DateTimeFormat(intlLocale(), { dateStyle: 'long' }).format(new Date(`${iso.slice(0, 10)}T00:00:00Z`));
}

export function AccountStatusCard({ user }: { user: User }) {
  const { t, i18n } = useTranslation('dashboard');
  const { t: tl } = useTranslation('layout');
  const { t: tc } = useTranslation('common');
  const left = daysLeft(user.expDate);
  const warning = headerWarning(left);
  const active = isUserActive(user);

  return (
    <Panel
      className="lr-fill"
      title={t('status.title')}
      extra={<Link to={localePath('/admin/plan')}>{t('status.changePlan')}</Link>}
    >
      <Descriptions column={1} size="small">
        <Descriptions.Item label={t('status.tariff')}>
          {isDemo(user) ? tl('header.demo') : (paidPlanTitle(user, i18n.language) ?? '—')}
        </Descriptions.Item>
        <Descriptions.Item label={t('status.daysLeft')}>
          {left === null ? (
            '∞'
          ) : (
            <span className={warning === 'none' ? undefined : 'lr-text-danger'}>
              {left <= 0 ? tl('header.expired') : tc('days', { count: left })}
            </span>
          )}
        </Descriptions.Item>
        <Descriptions.Item label={t('status.expires')}>
          {user.expDate ? formatDate(user.expDate) : tc('never')}
        </Descriptions.Item>
        <Descriptions.Item label={t('status.state')}>
          <Tag color={active ? 'green' : 'red'}>{active ? t('status.active') : t('status.inactive')}</Tag>
        </Descriptions.Item>
      </Descriptions>
    </Panel>
  );
}
