import type { Integration } from '@leadrelay/shared';
import { Col, Row } from 'antd';
import type { ComponentProps, ComponentType, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { GeneralCard } from '../../../components/integrations/general-card';
import { ConnectionCard } from './connection-card';
import { CrmPageShell, type TabItem } from './crm-page-shell';
import { CrmUsersCard } from './crm-users-card';

type UsersQuery = ComponentProps<typeof CrmUsersCard>['users'];

interface Props {
  type: 'amocrm' | 'pipedrive' | 'uspacy';
  crmName: string;
  connect: { start: (integrationId: string) => unknown; isPending: boolean };
  /** In the connection card, below its actions: the token form, backups … */
  connectionExtra: (integration: Integration) => ReactNode;
  settingsCard: ComponentType<{ integration: Integration }>;
  fieldsCard: ComponentType<{ integration: Integration }>;
  useUsers: (integration: Integration) => UsersQuery;
  /** Tabs after the users tab. */
  moreTabs?: (integration: Integration) => TabItem[];
}

function UsersTab({ integration, useUsers }: { integration: Integration; useUsers: Props['useUsers'] }) {
  return <CrmUsersCard integration={integration} users={useUsers(integration)} />;
}

/** A CRM integration's page (the :id in the URL): connection, pipeline, fields and users tabs. */
export function CrmIntegrationView({
  type,
  crmName,
  connect,
  connectionExtra,
  settingsCard: SettingsCard,
  fieldsCard: FieldsCard,
  useUsers,
  moreTabs,
}: Props) {
  const { t } = useTranslation('crm');

  return (
    <CrmPageShell
      type={type}
      crmName={crmName}
      tabs={(item) => [
        {
          key: 'connection',
          label: t('tabs.connection'),
          children: (
            <Row gutter={[16, 16]}>
              <Col xs={24} lg={10}>
                <GeneralCard integration={item} typeLabel={crmName} />
              </Col>
              <Col xs={24} lg={14}>
                <ConnectionCard
                  integration={item}
                  crmName={crmName}
                  onConnect={() => void connect.start(item._id)}
                  connecting={connect.isPending}
                >
                  {connectionExtra(item)}
                </ConnectionCard>
              </Col>
            </Row>
          ),
        },
        { key: 'pipeline', label: t('tabs.pipeline'), children: <SettingsCard integration={item} /> },
        { key: 'fields', label: t('tabs.fields'), children: <FieldsCard integration={item} /> },
        { key: 'users', label: t('tabs.users'), children: <UsersTab integration={item} useUsers={useUsers} /> },
        ...(moreTabs?.(item) ?? []),
      ]}
    />
  );
}
