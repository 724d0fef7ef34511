import { FbMapping } from '../features/facebook/components/fb-mapping';
import { FbSourceCard } from '../features/facebook/components/fb-source-card';
import { HoroshopMapping } from '../features/horoshop/components/horoshop-mapping';
import { HoroshopSource } from '../features/horoshop/components/horoshop-source';
import { IntegrationPage, type SourceParts } from '../features/integrations/pages/integration-page';

// Source types with their own cards, listed here because one feature never imports another.
const SOURCES = new Map<string, SourceParts>([
  ['facebook', { SourceCard: FbSourceCard, Mapping: FbMapping }],
  ['horoshop', { SourceCard: HoroshopSource, Mapping: HoroshopMapping }],
]);

/** /admin/integrations/:type/:id: the integrations feature's page with the source types above. */
export function IntegrationDetailPage() {
  return <IntegrationPage sources={SOURCES} />;
}
