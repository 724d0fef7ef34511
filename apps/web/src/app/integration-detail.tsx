import { IntegrationPage } from '../features/integrations/pages/integration-page';

/** /admin/integrations/:type/:id of a type without a page of its own: the integrations feature's page. */
export function IntegrationDetailPage() {
  return <IntegrationPage />;
}
