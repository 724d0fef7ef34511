import '../../../components/integrations/integrations.css';
import '../facebook.css';
import { ArrowLeftOutlined, PlusOutlined, SettingOutlined } from '@ant-design/icons';
import type { Integration } from '@leadrelay/shared';
import { Button, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { IntegrationsList } from '../../../components/integrations/integrations-list';
import { PermissionGuard } from '../../../components/permission-guard';
import { integrationPath } from '../../../lib/integrations/integration-path';
import { localePath } from '../../../lib/locale';
import { CreateFbIntegrationModal } from '../components/create-fb-integration-modal';

/** /admin/integrations/fb: the account's facebook lead-form integrations. */
export function FbIntegrationsPage() {
  const { t } = useTranslation('facebook');
  const { t: ti } = useTranslation('integrations');
  const navigate = useNavigate();
  const [creating, setCreating] = useState(false);
  const onCreated = (i: Integration) => {
    setCreating(false);
    navigate(integrationPath(i));
  };

  return (
    <div className="lr-page">
      <Link to={localePath('/admin/integrations')} className="lr-back">
        <ArrowLeftOutlined aria-hidden /> {ti('page.allIntegrations')}
      </Link>
      <div className="lr-page-head">
        <div className="lr-min0">
          <Typography.Title level={2} className="lr-page-title">
            {t('list.title')}
          </Typography.Title>
          <Typography.Paragraph type="secondary">{t('list.subtitle')}</Typography.Paragraph>
        </div>
        <div className="lr-actions lr-fb-head-actions">
          <Button
            icon={<SettingOutlined aria-hidden />}
            onClick={() => navigate(localePath('/admin/integrations/facebook'))}
          >
            {t('list.connections')}
          </Button>
          <PermissionGuard>
            <Button type="primary" icon={<PlusOutlined aria-hidden />} onClick={() => setCreating(true)}>
              {t('list.new')}
            </Button>
          </PermissionGuard>
        </div>
      </div>
      <IntegrationsList fixedType="facebook" onCreate={() => setCreating(true)} />
      <CreateFbIntegrationModal open={creating} onClose={() => setCreating(false)} onCreated={onCreated} />
    </div>
  );
}
