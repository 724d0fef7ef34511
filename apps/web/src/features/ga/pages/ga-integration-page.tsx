import '../ga.css';
import { Col, Row } from 'antd';
import { useTranslation } from 'react-i18next';
import { DestinationShell } from '../../../components/integrations/destination-shell';
import { GeneralCard } from '../../../components/integrations/general-card';
import { GaConnectionCard } from '../components/ga-connection-card';
import { GaEventCard } from '../components/ga-event-card';
import { GaTestCard } from '../components/ga-test-card';
import { GA_NAME } from './ga-page';

/** /admin/integrations/ga/:id: measurement id and secret, the event and its parameters, a test lead. */
export function GaIntegrationPage() {
  const { t } = useTranslation('ga');
  return (
    <DestinationShell
      type="ga"
      typeName={GA_NAME}
      backLabel={t('page.back')}
      notConnected={t('page.notConnected')}
      tabs={(item) => [
        {
          key: 'connection',
          label: t('tabs.connection'),
          children: (
            <Row gutter={[16, 16]}>
              <Col xs={24} lg={10}>
                <GeneralCard integration={item} typeLabel={GA_NAME} />
              </Col>
              <Col xs={24} lg={14}>
                <GaConnectionCard integration={item} />
              </Col>
            </Row>
          ),
        },
        {
          key: 'event',
          label: t('tabs.event'),
          children: (
            <Row gutter={[16, 16]}>
              <Col xs={24} xl={14}>
                <GaEventCard integration={item} />
              </Col>
              <Col xs={24} xl={10}>
                <GaTestCard integration={item} />
              </Col>
            </Row>
          ),
        },
      ]}
    />
  );
}
