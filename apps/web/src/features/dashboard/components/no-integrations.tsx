import { ApiOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Card, Empty, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PermissionGuard } from '../../../components/permission-guard';
import { localePath } from '../../../lib/locale';

/** Shown while the account has no integration: invites to create the first one. */
export function NoIntegrations() {
  const { t } = useTranslation('dashboard');
  return (
    <Card className="lr-fill">
      <Empty
        className="lr-dashboard-empty"
        image={<ApiOutlined className="lr-empty-icon" />}
        description={
          <>
            <Typography.Title level={4}>{t('empty.title')}</Typography.Title>
            <Typography.Paragraph type="secondary">{t('empty.text')}</Typography.Paragraph>
          </>
        }
      >
        <PermissionGuard>
          <Link to={localePath('/admin/integrations')}>
            <Button type="primary" icon={<PlusOutlined />}>
              {t('empty.action')}
            </Button>
          </Link>
        </PermissionGuard>
      </Empty>
    </Card>
  );
}
