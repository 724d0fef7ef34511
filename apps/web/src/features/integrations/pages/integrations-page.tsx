import '../../../components/integrations/integrations.css';
import { ArrowLeftOutlined, PlusOutlined } from '@ant-design/icons';
import type { ConnectorManifest } from '@leadrelay/connectors/manifest';
import type { Integration } from '@leadrelay/shared';
import { Button, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { useConnectorWords } from '../../../components/connector-page/words';
import { IntegrationsList } from '../../../components/integrations/integrations-list';
import { PermissionGuard } from '../../../components/permission-guard';
import { typeDescription, typeName } from '../../../lib/integrations/catalogue';
import { integrationPath } from '../../../lib/integrations/integration-path';
import { useCatalogueQuery } from '../../../lib/integrations/queries';
import { localePath } from '../../../lib/locale';
import { CreateIntegrationModal } from '../components/create-integration-modal';

/**
 * /admin/integrations, and /admin/integrations/:type: the list filtered to one type; a source connector's
 * (its manifest's `source`) says while empty what it is for and offers its own first step.
 */
export function IntegrationsPage({ manifest }: { manifest?: ConnectorManifest | null }) {
  const { t } = useTranslation('integrations');
  const { type } = useParams();
  const say = useConnectorWords(manifest?.slug ?? '');
  const own = manifest?.source?.empty;
  const navigate = useNavigate();
  const catalogue = useCatalogueQuery();
  const [creating, setCreating] = useState(false);
  const onCreated = (i: Integration) => {
    setCreating(false);
    navigate(integrationPath(i));
  };

  return (
    <div className="lr-page">
      {type && (
        <Link to={localePath('/admin/integrations')} className="lr-back">
          <ArrowLeftOutlined aria-hidden /> {t('page.allIntegrations')}
        </Link>
      )}
      <div className="lr-page-head">
        <div>
          <Typography.Title level={2} className="lr-page-title">
            {type ? typeName(catalogue.data, type) : t('list.title')}
          </Typography.Title>
          {/* A type's page says what the type is (its catalogue description); the whole list what it holds. */}
          <Typography.Paragraph type="secondary">
            {(type && typeDescription(type)) || t('list.subtitle')}
          </Typography.Paragraph>
        </div>
        <PermissionGuard>
          <Button type="primary" icon={<PlusOutlined aria-hidden />} onClick={() => setCreating(true)}>
            {t('list.new')}
          </Button>
        </PermissionGuard>
      </div>
      <IntegrationsList
        key={type ?? ''}
        fixedType={type}
        empty={own && { title: say(own.title), text: say(own.text), action: say(own.action) }}
        onCreate={() => setCreating(true)}
      />
      <CreateIntegrationModal
        open={creating}
        presetType={type}
        onClose={() => setCreating(false)}
        onCreated={onCreated}
      />
    </div>
  );
}
