import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import type { Integration } from '@leadrelay/shared';
import { Alert, Button, Card, Empty, Select, Skeleton, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { StatusTag } from '../../../components/integrations/status-tag';
import { PermissionGuard } from '../../../components/permission-guard';
import { errorMessage } from '../../../lib/errors';
import { typeName } from '../../../lib/integrations/catalogue';
import { integrationPath } from '../../../lib/integrations/integration-path';
import {
  useAllIntegrationsQuery,
  useCatalogueQuery,
  useDestinationMutation,
  useDestinationsQuery,
} from '../../../lib/integrations/queries';
import { useApp } from '../../../lib/use-app';
import { CreateIntegrationModal } from './create-integration-modal';

/** Destinations of a source: the account's destination integrations its catalogue type allows. */
export function DestinationsCard({ integration }: { integration: Integration }) {
  const { t } = useTranslation('integrations');
  const { message } = useApp();
  const catalogue = useCatalogueQuery();
  const current = useDestinationsQuery(integration._id);
  const all = useAllIntegrationsQuery();
  const change = useDestinationMutation(integration._id);
  const [picked, setPicked] = useState<string | undefined>();
  const [creating, setCreating] = useState(false);

  const allowed = new Set(catalogue.data?.find((s) => s.slug === integration.type)?.destinations.map((d) => d.slug));
  const currentIds = new Set((current.data ?? []).map((d) => d._id));
  const candidates = (all.data ?? []).filter(
    (i) => i.kind === 'destination' && allowed.has(i.type) && !currentIds.has(i._id),
  );
  const canCreateHttp = allowed.has('http') && catalogue.data?.some((s) => s.slug === 'http' && !s.hidden);

  const run = async (destination: string, add: boolean) => {
    try {
      await change.mutateAsync({ destination, add });
      void message.success(add ? t('destinations.added') : t('destinations.removed'));
      if (add) setPicked(undefined);
    } catch (err) {
      void message.error(errorMessage(err));
    }
  };
  const onCreated = async (created: Integration) => {
    setCreating(false);
    await run(created._id, true);
  };

  return (
    <Card
      title={t('destinations.title')}
      extra={
        canCreateHttp && (
          <PermissionGuard>
            <Button type="link" icon={<PlusOutlined aria-hidden />} onClick={() => setCreating(true)}>
              {t('destinations.createHttp')}
            </Button>
          </PermissionGuard>
        )
      }
    >
      <Typography.Paragraph type="secondary" className="lr-hint">
        {t('destinations.hint')}
      </Typography.Paragraph>
      <div className="lr-add-row">
        <Select
          value={picked}
          onChange={setPicked}
          placeholder={candidates.length ? t('destinations.pick') : t('destinations.noCandidates')}
          disabled={!candidates.length}
          loading={all.isPending}
          aria-label={t('destinations.pick')}
          options={candidates.map((c) => ({ value: c._id, label: `${c.name} · ${typeName(catalogue.data, c.type)}` }))}
          className="lr-grow"
        />
        <PermissionGuard>
          <Button
            type="primary"
            disabled={!picked}
            loading={change.isPending && change.variables?.add}
            onClick={() => picked && run(picked, true)}
          >
            {t('destinations.add')}
          </Button>
        </PermissionGuard>
      </div>
      {current.isError && <Alert type="error" showIcon title={errorMessage(current.error)} />}
      {current.isPending ? (
        <Skeleton active paragraph={{ rows: 2 }} />
      ) : (current.data ?? []).length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('destinations.empty')} />
      ) : (
        <ul className="lr-dest-list">
          {(current.data ?? []).map((d) => (
            <li key={d._id} className="lr-dest-row" data-testid="destination-row">
              <div className="lr-dest">
                <Link to={integrationPath(d)} className="lr-int-name">
                  {d.name}
                </Link>
                <div className="lr-dest-meta">
                  <Typography.Text type="secondary">{typeName(catalogue.data, d.type)}</Typography.Text>
                  <StatusTag integration={d} />
                  {(d.state.code === 'not_configured' || d.state.code === 'not_connected') && (
                    <Link to={integrationPath(d)}>{t('destinations.setUp')}</Link>
                  )}
                </div>
              </div>
              <PermissionGuard>
                <Button
                  type="text"
                  danger
                  icon={<DeleteOutlined aria-hidden />}
                  aria-label={t('destinations.removeFor', { name: d.name })}
                  onClick={() => run(d._id, false)}
                />
              </PermissionGuard>
            </li>
          ))}
        </ul>
      )}
      <CreateIntegrationModal
        open={creating}
        presetType="http"
        kind="destination"
        onClose={() => setCreating(false)}
        onCreated={onCreated}
      />
    </Card>
  );
}
