import { Col, Row } from 'antd';
import { useTranslation } from 'react-i18next';
import { DestinationShell } from '../../../components/integrations/destination-shell';
import { GeneralCard } from '../../../components/integrations/general-card';
import { TelegramConnectionCard } from '../components/telegram-connection-card';
import { TelegramManagersCard } from '../components/telegram-managers-card';
import { TELEGRAM_NAME } from './telegram-page';

/** /admin/integrations/telegram/:id: which bot (own or the platform's), and the managers it sends cards to. */
export function TelegramIntegrationPage() {
  const { t } = useTranslation('telegram');
  return (
    <DestinationShell
      type="telegram"
      typeName={TELEGRAM_NAME}
      backLabel={t('page.back')}
      notConnected={t('page.notConnected')}
      tabs={(item) => [
        {
          key: 'connection',
          label: t('tabs.connection'),
          children: (
            <Row gutter={[16, 16]}>
              <Col xs={24} lg={10}>
                <GeneralCard integration={item} typeLabel={TELEGRAM_NAME} />
              </Col>
              <Col xs={24} lg={14}>
                <Row gutter={[16, 16]}>
                  <Col span={24}>
                    <TelegramConnectionCard integration={item} />
                  </Col>
                  <Col span={24}>
                    <TelegramManagersCard integration={item} />
                  </Col>
                </Row>
              </Col>
            </Row>
          ),
        },
      ]}
    />
  );
}
