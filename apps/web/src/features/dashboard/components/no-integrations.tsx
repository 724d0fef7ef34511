import { ApiOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Empty } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Panel } from '../../../components/panel';
import { PermissionGuard } from '../../../components/permission-guard';
import { localePath } from '../../../lib/locale';

/** Shown while the account has no integration: invites to create the first one. */
export function NoIntegrations() {
  const { t } = useTranslation('dashboard');
  return (
    <Panel className="lr-fill">
      <Empty
        className="lr-dashboard-empty"
        image={<ApiOutlined aria-hidden className="lr-empty-icon" />}
        description={
          <>
            <h4 className="lr-heading">{t('empty.title')}</h4>
            <p className="lr-paragraph lr-text-secondary">{t('empty.text')}</p>
          </>
        }
      >
        <PermissionGuard>
          <Link to={localePath('/admin/integrations')}>
            <Button type="primary" icon={<PlusOutlined aria-hidden />}>
              {t('empty.action')}
            </Button>
          </Link>
        </PermissionGuard>
      </Empty>
    </Panel>
  );
}
