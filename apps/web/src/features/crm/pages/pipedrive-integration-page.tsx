import type { Integration } from '@leadrelay/shared';
import { Col, Row } from 'antd';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { GeneralCard } from '../../integrations/components/general-card';
import { ConnectionCard } from '../components/connection-card';
import { CrmPageShell } from '../components/crm-page-shell';
import { CrmUsersCard } from '../components/crm-users-card';
import { PD_NAME, useStartPipedriveConnect } from '../components/pipedrive-connect';
import { PipedriveFieldsCard } from '../components/pipedrive-fields-card';
import { PipedriveSettingsCard } from '../components/pipedrive-settings-card';
import { PipedriveTokenForm } from '../components/pipedrive-token-form';
import { PipedriveWebhooksCard } from '../components/pipedrive-webhooks-card';
import { usePipedriveUsers } from '../queries';

function UsersTab({ integration }: { integration: Integration }) {
  return <CrmUsersCard integration={integration} users={usePipedriveUsers(integration)} />;
}

/** /admin/integrations/pipedrive/:id */
export function PipedriveIntegrationPage() {
  const { t } = useTranslation('crm');
  const { id = '' } = useParams();
  const connect = useStartPipedriveConnect();

  return (
    <CrmPageShell
      id={id}
      type="pipedrive"
      crmName={PD_NAME}
      tabs={(item) => [
        {
          key: 'connection',
          label: t('tabs.connection'),
          children: (
            <Row gutter={[16, 16]}>
              <Col xs={24} lg={10}>
                <GeneralCard integration={item} typeLabel={PD_NAME} />
              </Col>
              <Col xs={24} lg={14}>
                <ConnectionCard
                  integration={item}
                  crmName={PD_NAME}
                  onConnect={() => void connect.start(item._id)}
                  connecting={connect.isPending}
                >
                  <PipedriveTokenForm integration={item} />
                </ConnectionCard>
              </Col>
            </Row>
          ),
        },
        { key: 'pipeline', label: t('tabs.pipeline'), children: <PipedriveSettingsCard integration={item} /> },
        { key: 'fields', label: t('tabs.fields'), children: <PipedriveFieldsCard integration={item} /> },
        { key: 'users', label: t('tabs.users'), children: <UsersTab integration={item} /> },
        { key: 'webhooks', label: t('tabs.webhooks'), children: <PipedriveWebhooksCard integration={item} /> },
      ]}
    />
  );
}
