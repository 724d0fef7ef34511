// /admin/integrations/:type and /admin/integrations/:type/:id: a connector whose manifest describes
// its page gets that page (components/connector-page, ADR 014); any other type the generic ones.
import type { ConnectorManifest } from '@leadrelay/connectors/manifest';
import { Skeleton } from 'antd';
import { useParams } from 'react-router';
import { ConnectorDetailPage, ConnectorListPage } from '../components/connector-page/connector-pages';
import { IntegrationsPage } from '../features/integrations/pages/integrations-page';
import { useManifest } from '../lib/connectors/manifests';
import { IntegrationDetailPage } from './integration-detail';

type WithPage = ConnectorManifest & { page: NonNullable<ConnectorManifest['page']> };

const hasPage = (m: ConnectorManifest | null): m is WithPage => Boolean(m?.page);

/** The route type's manifest once its chunk is in; `undefined` while it loads. */
function useTypeManifest(): WithPage | null | undefined {
  const { type = '' } = useParams();
  const manifest = useManifest(type);
  return manifest === undefined ? undefined : hasPage(manifest) ? manifest : null;
}

export function IntegrationTypePage() {
  const manifest = useTypeManifest();
  if (manifest === undefined) return <Skeleton active className="lr-page" />;
  return manifest ? <ConnectorListPage key={manifest.slug} manifest={manifest} /> : <IntegrationsPage />;
}

export function IntegrationTypeDetailPage() {
  const manifest = useTypeManifest();
  if (manifest === undefined) return <Skeleton active className="lr-page" />;
  return manifest ? <ConnectorDetailPage key={manifest.slug} manifest={manifest} /> : <IntegrationDetailPage />;
}
