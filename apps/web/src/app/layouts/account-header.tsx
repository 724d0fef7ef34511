import { DownOutlined, UserOutlined } from '@ant-design/icons';
import { daysLeft, headerWarning, isDemo } from '@leadrelay/shared';
import { Avatar, Dropdown, type MenuProps, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { LanguageSwitcher } from '../../components/language-switcher';
import { signOut, useMe } from '../../lib/current-user';
import { localePath } from '../../lib/locale';
import { paidPlanTitle } from '../../lib/plans';

/**
 * Tariff and days left (danger at ≤ 11, expired at ≤ 0) with a link to /admin/plan. None for staff:
 * the platform's own accounts have no tariff and never expire.
 */
export function TariffStatus({ compact = false }: { compact?: boolean }) {
  const { t, i18n } = useTranslation('layout');
  const { data: user } = useMe();
  if (!user || user.role !== 'client') return null;
  const left = daysLeft(user.expDate);
  const warning = headerWarning(left);
  const tariff = isDemo(user) ? t('header.demo') : (paidPlanTitle(user, i18n.language) ?? t('header.tariff'));
  return (
    <Link to={localePath('/admin/plan')} className="lr-tariff" title={t('header.changePlan')} data-warning={warning}>
      <Tag color={isDemo(user) ? 'gold' : 'geekblue'} className="lr-tariff-tag">
        {tariff}
      </Tag>
      {left !== null && (
        <span className={warning === 'none' ? 'lr-days' : 'lr-days lr-days-danger'}>
          {warning === 'expired' ? t('header.expired') : t('header.daysLeft', { count: left })}
        </span>
      )}
      {!compact && <span className="lr-change-plan">{t('header.changePlan')}</span>}
    </Link>
  );
}

export function UserMenu({ compact = false }: { compact?: boolean }) {
  const { t } = useTranslation('layout');
  const navigate = useNavigate();
  const { data: user } = useMe();
  const items: MenuProps['items'] = [
    { key: '/admin/account', label: t('user.account') },
    { key: '/admin/plan', label: t('user.plan') },
    { key: '/admin/billing', label: t('user.billing') },
    { key: '/admin/referral', label: t('user.referral') },
    { type: 'divider' },
    { key: 'logout', label: t('user.logout'), danger: true },
  ];
  const onClick: MenuProps['onClick'] = async ({ key }) => {
    if (key !== 'logout') return void navigate(localePath(key));
    await signOut();
    await navigate(localePath('/signin'), { replace: true });
  };
  return (
    <Dropdown menu={{ items, onClick }} trigger={['click']} placement="bottomRight">
      <button type="button" className="lr-user-button" aria-label={user?.login ?? t('user.account')}>
        <Avatar size="small" icon={<UserOutlined aria-hidden />} style={{ background: 'var(--lr-primary)' }} />
        {!compact && <span className="lr-user-login">{user?.name || user?.login}</span>}
        <DownOutlined aria-hidden style={{ fontSize: 10 }} />
      </button>
    </Dropdown>
  );
}

export function AccountHeaderRight({ compact }: { compact: boolean }) {
  return (
    <div className="lr-header-right">
      <TariffStatus compact={compact} />
      {!compact && <LanguageSwitcher size="small" />}
      <UserMenu compact={compact} />
    </div>
  );
}
