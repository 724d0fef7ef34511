// /admin/integrations/:type and /admin/integrations/:type/:id: a connector whose manifest describes
// its page gets that page (components/connector-page, ADR 014); one with account connections its
// connections page, and its integrations list at the path it names; any other type of the catalogue the
// generic ones, and a type nobody has the 404 page.
import type { AccountsScreen, ConnectorManifest } from '@leadrelay/connectors/manifest';
import { Skeleton } from 'antd';
import { useParams } from 'react-router';
import { AccountIntegrationsPage, AccountsPage } from '../components/connector-page/accounts-pages';
import { ConnectorDetailPage, ConnectorListPage } from '../components/connector-page/connector-pages';
import { NotFound } from '../components/not-found';
import { IntegrationsPage } from '../features/integrations/pages/integrations-page';
import { useListPathManifest, useManifest } from '../lib/connectors/manifests';
import { useCatalogueQuery } from '../lib/integrations/queries';
import { IntegrationDetailPage } from './integration-detail';

type WithPage = ConnectorManifest & { page: NonNullable<ConnectorManifest['page']> };
type WithAccounts = ConnectorManifest & { accounts: AccountsScreen };

const hasPage = (m: ConnectorManifest | null | undefined): m is WithPage => Boolean(m?.page);
const hasAccounts = (m: ConnectorManifest | null | undefined): m is WithAccounts => Boolean(m?.accounts);

export function IntegrationTypePage() {
  const { type = '' } = useParams();
  const manifest = useManifest(type);
  // A path no connector's folder has may be one's integrations list.
  const listOf = useListPathManifest(type);
  const catalogue = useCatalogueQuery();
  if (manifest === undefined || listOf === undefined) return <Skeleton active className="lr-page" />;
  if (hasPage(manifest)) return <ConnectorListPage key={manifest.slug} manifest={manifest} />;
  if (hasAccounts(manifest)) return <AccountsPage key={manifest.slug} manifest={manifest} />;
  if (hasAccounts(listOf)) return <AccountIntegrationsPage key={listOf.slug} manifest={listOf} />;
  // The generic list is a catalogue type's: a slug the catalogue has not (a typo, /bogus) is no page.
  if (catalogue.isPending) return <Skeleton active className="lr-page" />;
  if (catalogue.data && !catalogue.data.some((s) => s.slug === type)) return <NotFound />;
  return <IntegrationsPage manifest={manifest} />;
}

export function IntegrationTypeDetailPage() {
  const { type = '' } = useParams();
  const manifest = useManifest(type);
  if (manifest === undefined) return <Skeleton active className="lr-page" />;
  return hasPage(manifest) ? (
    <ConnectorDetailPage key={manifest.slug} manifest={manifest} />
  ) : (
    <IntegrationDetailPage />
  );
}
