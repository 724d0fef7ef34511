import type { Integration } from '@leadrelay/shared';
import { Col, Row } from 'antd';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { GeneralCard } from '../../integrations/components/general-card';
import { AmoBackups } from '../components/amo-backups';
import { AMO_NAME, useStartAmoConnect } from '../components/amo-connect';
import { AmoFieldsCard } from '../components/amo-fields-card';
import { AmoSettingsCard } from '../components/amo-settings-card';
import { ConnectionCard } from '../components/connection-card';
import { CrmPageShell } from '../components/crm-page-shell';
import { CrmUsersCard } from '../components/crm-users-card';
import { useOAuthReturn } from '../components/use-oauth-return';
import { useAmoUsers } from '../queries';

function UsersTab({ integration }: { integration: Integration }) {
  return <CrmUsersCard integration={integration} users={useAmoUsers(integration)} />;
}

/** /admin/integrations/amocrm/:id */
export function AmocrmIntegrationPage() {
  const { t } = useTranslation('crm');
  const { id = '' } = useParams();
  const connect = useStartAmoConnect();
  useOAuthReturn(AMO_NAME);

  return (
    <CrmPageShell
      id={id}
      type="amocrm"
      crmName={AMO_NAME}
      tabs={(item) => [
        {
          key: 'connection',
          label: t('tabs.connection'),
          children: (
            <Row gutter={[16, 16]}>
              <Col xs={24} lg={10}>
                <GeneralCard integration={item} typeLabel={AMO_NAME} />
              </Col>
              <Col xs={24} lg={14}>
                <ConnectionCard
                  integration={item}
                  crmName={AMO_NAME}
                  onConnect={() => connect.start(item._id)}
                  connecting={connect.isPending}
                >
                  <AmoBackups integration={item} />
                </ConnectionCard>
              </Col>
            </Row>
          ),
        },
        { key: 'pipeline', label: t('tabs.pipeline'), children: <AmoSettingsCard integration={item} /> },
        { key: 'fields', label: t('tabs.fields'), children: <AmoFieldsCard integration={item} /> },
        { key: 'users', label: t('tabs.users'), children: <UsersTab integration={item} /> },
      ]}
    />
  );
}
