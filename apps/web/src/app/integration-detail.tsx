import { FbMapping } from '../features/facebook/components/fb-mapping';
import { FbSourceCard } from '../features/facebook/components/fb-source-card';
import { IntegrationPage, type SourceParts } from '../features/integrations/pages/integration-page';

// Source types with their own cards, listed here because one feature never imports another (a
// connector's manifest declares its source cards instead: the page draws those itself).
const SOURCES = new Map<string, SourceParts>([['facebook', { SourceCard: FbSourceCard, Mapping: FbMapping }]]);

/** /admin/integrations/:type/:id: the integrations feature's page with the source types above. */
export function IntegrationDetailPage() {
  return <IntegrationPage sources={SOURCES} />;
}
