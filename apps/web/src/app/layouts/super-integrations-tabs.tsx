import { Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { localePath, stripLocale } from '../../lib/locale';

const BASE = '/admin/super/integrations';

/** /admin/super/integrations: tabs for its index, categories and modules children. */
export function SuperIntegrationsTabs() {
  const { t } = useTranslation('layout');
  const navigate = useNavigate();
  const path = stripLocale(useLocation().pathname);
  const active = path.endsWith('/categories') ? 'categories' : path.endsWith('/modules') ? 'modules' : '';
  return (
    <>
      <Tabs
        activeKey={active}
        onChange={(key) => void navigate(localePath(key ? `${BASE}/${key}` : BASE))}
        items={[
          { key: '', label: t('super.integrationsIndex') },
          { key: 'categories', label: t('super.categories') },
          { key: 'modules', label: t('super.modules') },
        ]}
      />
      <Outlet />
    </>
  );
}
