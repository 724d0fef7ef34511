import { Col, Row, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { FullPageSpinner } from '../../../components/full-page-spinner';
import { useMe } from '../../../lib/current-user';
import { ApiKeysCard } from '../components/api-keys-card';
import { DangerZone } from '../components/danger-zone';
import { PasswordForm } from '../components/password-form';
import { ProfileForm } from '../components/profile-form';
import { SessionsTable } from '../components/sessions-table';

export function AccountPage() {
  const { t } = useTranslation('account');
  const { data: user } = useMe();
  if (!user) return <FullPageSpinner inline />;
  return (
    <div className="lr-page">
      <Typography.Title level={2} className="lr-page-title">
        {t('title')}
      </Typography.Title>
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={12}>
          <ProfileForm user={user} />
        </Col>
        <Col xs={24} lg={12}>
          <PasswordForm />
        </Col>
        <Col span={24}>
          <SessionsTable />
        </Col>
        <Col span={24}>
          <ApiKeysCard timeZone={user.timeZone} />
        </Col>
        <Col span={24}>
          <DangerZone />
        </Col>
      </Row>
    </div>
  );
}
