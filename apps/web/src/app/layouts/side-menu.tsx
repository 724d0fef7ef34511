import {
  ApiOutlined,
  AppstoreOutlined,
  BookOutlined,
  CodeOutlined,
  CrownOutlined,
  DashboardOutlined,
  MessageOutlined,
  SafetyOutlined,
  ThunderboltOutlined,
  UnorderedListOutlined,
} from '@ant-design/icons';
import { isPrivileged } from '@leadrelay/shared';
import { Menu, type MenuProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { useMe } from '../../lib/current-user';
import { localePath, stripLocale } from '../../lib/locale';
import { LINKS, supportLink } from '../links';

const PATHS = [
  '/admin/integrations',
  '/admin/collections',
  '/admin/parsers',
  '/admin/widget',
  '/admin/speed',
  '/admin/guardian',
  '/admin/super',
  '/admin',
] as const;

/** The account sidebar (spec section 2); parsers and super-admin only for privileged roles. */
export function SideMenu({ onNavigate }: { onNavigate?: () => void }) {
  const { t } = useTranslation('layout');
  const navigate = useNavigate();
  const path = stripLocale(useLocation().pathname);
  const { data: user } = useMe();
  const privileged = isPrivileged(user?.role);
  // The catalogue pickers create integrations: they belong under Integrations in the menu.
  const section = path === '/admin/create' || path === '/admin/list' ? '/admin/integrations' : path;
  const selected = PATHS.find((p) => (p === '/admin' ? section === p : section === p || section.startsWith(`${p}/`)));

  const items: MenuProps['items'] = [
    { key: '/admin', icon: <DashboardOutlined aria-hidden />, label: t('menu.dashboard') },
    { key: '/admin/integrations', icon: <ApiOutlined aria-hidden />, label: t('menu.integrations') },
    { key: '/admin/collections', icon: <UnorderedListOutlined aria-hidden />, label: t('menu.collections') },
    { key: '/admin/speed', icon: <ThunderboltOutlined aria-hidden />, label: t('menu.speed') },
    { key: '/admin/guardian', icon: <SafetyOutlined aria-hidden />, label: t('menu.guardian') },
    ...(privileged ? [{ key: '/admin/parsers', icon: <CodeOutlined aria-hidden />, label: t('menu.parsers') }] : []),
    { key: '/admin/widget', icon: <AppstoreOutlined aria-hidden />, label: t('menu.widget') },
    ...(privileged ? [{ key: '/admin/super', icon: <CrownOutlined aria-hidden />, label: t('menu.super') }] : []),
    { type: 'divider' },
    {
      key: 'kb',
      icon: <BookOutlined aria-hidden />,
      label: (
        <a href={LINKS.knowledgeBase} target="_blank" rel="noreferrer">
          {t('menu.knowledgeBase')}
        </a>
      ),
    },
    {
      key: 'support',
      icon: <MessageOutlined aria-hidden />,
      label: (
        <a href={supportLink(user?.login)} target="_blank" rel="noreferrer">
          {t('menu.support')}
        </a>
      ),
    },
  ];

  return (
    <Menu
      theme="dark"
      mode="inline"
      selectedKeys={selected ? [selected] : []}
      items={items}
      onClick={({ key }) => {
        if (!key.startsWith('/')) return;
        void navigate(localePath(key));
        onNavigate?.();
      }}
    />
  );
}
