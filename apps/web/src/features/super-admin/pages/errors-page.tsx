import { Card, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ErrorsTable } from '../components/errors-table';

/** /admin/super: the errors tab. */
export function ErrorsPage() {
  const { t } = useTranslation('superAdmin');
  return (
    <div className="lr-page">
      <Typography.Title level={2} className="lr-page-title">
        {t('errors.title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('errors.subtitle')}</Typography.Paragraph>
      <Card>
        <ErrorsTable />
      </Card>
    </div>
  );
}
