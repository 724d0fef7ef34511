import '../alfasms.css';
import { Col, Row } from 'antd';
import { useTranslation } from 'react-i18next';
import { DestinationShell } from '../../../components/integrations/destination-shell';
import { GeneralCard } from '../../../components/integrations/general-card';
import { SmsConnectionCard } from '../components/sms-connection-card';
import { SmsLog } from '../components/sms-log';
import { SmsSettingsCard } from '../components/sms-settings-card';
import { SMS_NAME } from './alfasms-page';

/** /admin/integrations/alfasms/:id: the key and balance, who is texted what and when, and the SMS log. */
export function AlfasmsIntegrationPage() {
  const { t } = useTranslation('sms');
  return (
    <DestinationShell
      type="alfasms"
      typeName={SMS_NAME}
      backLabel={t('page.back')}
      notConnected={t('page.notConnected')}
      tabs={(item) => [
        {
          key: 'connection',
          label: t('tabs.connection'),
          children: (
            <Row gutter={[16, 16]}>
              <Col xs={24} lg={10}>
                <GeneralCard integration={item} typeLabel={SMS_NAME} />
              </Col>
              <Col xs={24} lg={14}>
                <SmsConnectionCard integration={item} />
              </Col>
            </Row>
          ),
        },
        {
          key: 'messages',
          label: t('tabs.messages'),
          children: (
            <Row gutter={[16, 16]}>
              <Col xs={24} xl={18} xxl={14}>
                <SmsSettingsCard integration={item} />
              </Col>
            </Row>
          ),
        },
        { key: 'log', label: t('tabs.log'), children: <SmsLog integrationId={item._id} /> },
      ]}
    />
  );
}
