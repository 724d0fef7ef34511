import '../guardian.css';
import { Col, Row, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { AlertsCard } from '../components/alerts-card';
import { GuardianSettingsCard } from '../components/guardian-settings-card';
import { GuardianTelegramCard } from '../components/guardian-telegram-card';
import { ReconciliationCard } from '../components/reconciliation-card';

/** /admin/guardian: its mails (settings), the owner's Telegram, the daily reconciliation and its history. */
export function GuardianPage() {
  const { t } = useTranslation('guardian');
  return (
    <div className="lr-page">
      <div className="lr-page-head">
        <Typography.Title level={2} className="lr-page-title">
          {t('title')}
        </Typography.Title>
      </div>
      <Typography.Paragraph type="secondary">{t('intro')}</Typography.Paragraph>
      <Row gutter={[16, 16]}>
        <Col span={24}>
          <ReconciliationCard />
        </Col>
        <Col xs={24} lg={10}>
          <Space direction="vertical" size={16} className="lr-guardian-side">
            <GuardianSettingsCard />
            <GuardianTelegramCard />
          </Space>
        </Col>
        <Col xs={24} lg={14}>
          <AlertsCard />
        </Col>
      </Row>
    </div>
  );
}
