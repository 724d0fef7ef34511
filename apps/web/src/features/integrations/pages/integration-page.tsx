import '../../../components/integrations/integrations.css';
import { ArrowLeftOutlined } from '@ant-design/icons';
import type { ConnectorManifest } from '@leadrelay/connectors/manifest';
import type { Integration } from '@leadrelay/shared';
import { Alert, Col, Result, Row, Skeleton, Tabs, Typography } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useParams } from 'react-router';
import { AccountMapping, AccountSourceCard } from '../../../components/connector-page/account-source';
import { SourceCards, SourceMapping } from '../../../components/connector-page/source-cards';
import { ConversionsCard } from '../../../components/conversions/conversions-card';
import { HooksTable } from '../../../components/hooks/hooks-table';
import { GeneralCard } from '../../../components/integrations/general-card';
import { MappingSection } from '../../../components/integrations/mapping-section';
import { StateAlert } from '../../../components/integrations/state-alert';
import { StatusTag } from '../../../components/integrations/status-tag';
import { useManifest } from '../../../lib/connectors/manifests';
import { errorMessage } from '../../../lib/errors';
import { HttpError } from '../../../lib/http';
import { typeName } from '../../../lib/integrations/catalogue';
import { integrationPath } from '../../../lib/integrations/integration-path';
import { useCatalogueQuery, useIntegrationQuery } from '../../../lib/integrations/queries';
import { readSample, saveSample } from '../../../lib/integrations/sample';
import { localePath } from '../../../lib/locale';
import { useTabParam } from '../../../lib/use-tab-param';
import { DestinationsCard } from '../components/destinations-card';
import { DistributionCard } from '../components/distribution-card';
import { WebhookCard } from '../components/webhook-card';

const TABS = ['settings', 'mapping', 'destinations', 'leads'] as const;
type TabKey = (typeof TABS)[number];

/**
 * A source's own card and mapping: its manifest's source cards, or its account connections' (a
 * lead-form source), or none (it takes leads at our webhook URL).
 */
function ownParts(
  item: Integration,
  manifest: ConnectorManifest | null | undefined,
): { card: ReactNode; mapping: ReactNode } | null {
  if (manifest === undefined) return { card: <Skeleton active />, mapping: <Skeleton active /> };
  if (manifest?.source) {
    const declared = { ...manifest, source: manifest.source };
    return {
      card: <SourceCards integration={item} manifest={declared} />,
      mapping: <SourceMapping integration={item} manifest={declared} />,
    };
  }
  if (manifest?.accounts) {
    const declared = { ...manifest, accounts: manifest.accounts };
    return {
      card: <AccountSourceCard integration={item} manifest={declared} />,
      mapping: <AccountMapping integration={item} manifest={declared} />,
    };
  }
  return null;
}

/** /admin/integrations/:type/:id: one integration, its settings, mapping, destinations and leads. */
export function IntegrationPage() {
  const { t } = useTranslation('integrations');
  const { type, id = '' } = useParams();
  const tab = useTabParam();
  const integration = useIntegrationQuery(id);
  const catalogue = useCatalogueQuery();
  // The URL's type is the integration's (a wrong one is sent on below): its manifest, once its chunk is in.
  const manifest = useManifest(type ?? '');
  const [sample, setSample] = useState(() => readSample(id));
  const onSampleChange = (text: string) => {
    setSample(text);
    saveSample(id, text);
  };

  const back = (
    <Link
      to={localePath(type ? `/admin/integrations/${encodeURIComponent(type)}` : '/admin/integrations')}
      className="lr-back"
    >
      <ArrowLeftOutlined aria-hidden /> {t('page.back')}
    </Link>
  );
  if (integration.isPending) return <Skeleton active className="lr-page" />;
  if (integration.isError) {
    const missing = integration.error instanceof HttpError && integration.error.status === 404;
    return (
      <div className="lr-page">
        {back}
        <Result
          status={missing ? '404' : 'error'}
          title={missing ? t('page.notFound') : errorMessage(integration.error)}
          extra={<Link to={localePath('/admin/integrations')}>{t('page.allIntegrations')}</Link>}
        />
      </div>
    );
  }
  const item = integration.data;
  // The URL names the type; a wrong one (an old link) goes to the right page.
  if (type && type !== item.type) return <Navigate to={integrationPath(item)} replace />;

  const isSource = item.kind === 'source';
  // A source whose manifest declares its cards takes leads from elsewhere, not from a webhook URL of ours.
  const own = ownParts(item, manifest);
  const label = typeName(catalogue.data, item.type);
  const tabKey = (TABS as readonly string[]).includes(tab.requested) ? (tab.requested as TabKey) : 'settings';
  const settingsTab = (
    <Row gutter={[16, 16]}>
      <Col xs={24} lg={isSource ? 10 : 24}>
        <GeneralCard integration={item} typeLabel={label} />
      </Col>
      {isSource && (
        <Col xs={24} lg={14}>
          <div className="lr-int-column">
            {own?.card ?? <WebhookCard integration={item} sample={sample} />}
            {/* A source whose CRM stages go back to its ad platform (issue 33). */}
            {manifest?.conversions && (
              <ConversionsCard integration={item} slug={manifest.slug} conversions={manifest.conversions} />
            )}
          </div>
        </Col>
      )}
    </Row>
  );
  const items = [
    { key: 'settings', label: t('tabs.settings'), children: settingsTab },
    ...(isSource
      ? [
          {
            key: 'mapping',
            label: t('tabs.mapping'),
            children: own?.mapping ?? (
              <MappingSection integration={item} sample={sample} onSampleChange={onSampleChange} />
            ),
          },
          {
            key: 'destinations',
            label: t('tabs.destinations', { n: item.destination.length }),
            children: (
              <Row gutter={[16, 16]}>
                <Col xs={24} lg={14}>
                  <DestinationsCard integration={item} />
                </Col>
                <Col xs={24} lg={10}>
                  <DistributionCard integration={item} />
                </Col>
              </Row>
            ),
          },
          { key: 'leads', label: t('tabs.leads'), children: <HooksTable integrationId={item._id} /> },
        ]
      : []),
  ];

  return (
    <div className="lr-page">
      {back}
      <div className="lr-page-head">
        <div className="lr-min0">
          <Typography.Title level={2} className="lr-page-title">
            {item.name}
          </Typography.Title>
          <Typography.Paragraph type="secondary" className="lr-int-subtitle">
            <span>{label}</span>
            <StatusTag integration={item} withReason={false} />
          </Typography.Paragraph>
        </div>
      </div>
      <StateAlert state={item.state} />
      {!isSource && <Alert className="lr-mb" type="info" showIcon title={t('page.noSettings')} />}
      {items.length === 1 ? settingsTab : <Tabs activeKey={tabKey} onChange={tab.select} items={items} />}
    </div>
  );
}
