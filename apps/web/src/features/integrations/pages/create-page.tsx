import '../../../components/integrations/integrations.css';
import { Card, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { integrationPath } from '../../../lib/integrations/integration-path';
import { localePath } from '../../../lib/locale';
import { CreateIntegrationForm } from '../components/create-integration-form';

/** /admin/create and /admin/list: the catalogue picker as a page. */
export function CreatePage() {
  const { t } = useTranslation('integrations');
  const navigate = useNavigate();
  return (
    <div className="lr-page lr-page-narrow">
      <Typography.Title level={2} className="lr-page-title">
        {t('create.title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('create.subtitle')}</Typography.Paragraph>
      <Card>
        <CreateIntegrationForm
          onCreated={(i) => navigate(integrationPath(i))}
          onCancel={() => navigate(localePath('/admin/integrations'))}
        />
      </Card>
    </div>
  );
}
