import { useNavigate } from 'react-router';
import { errorMessage } from '../../../lib/errors';
import { integrationPath } from '../../../lib/integrations/integration-path';
import { useCreateIntegrationMutation } from '../../../lib/integrations/queries';
import { useApp } from '../../../lib/use-app';
import { AMO_NAME, useStartAmoConnect } from '../components/amo-connect';
import { CrmList } from '../components/crm-list';

/** /admin/integrations/amocrm: the account's amoCRM connections; a new one goes straight to amoCRM. */
export function AmocrmPage() {
  const { message } = useApp();
  const navigate = useNavigate();
  const create = useCreateIntegrationMutation();
  const connect = useStartAmoConnect();

  const onCreate = async ({ name }: { name: string }) => {
    let created: Awaited<ReturnType<typeof create.mutateAsync>>;
    try {
      created = await create.mutateAsync({ type: 'amocrm', name });
    } catch (err) {
      void message.error(errorMessage(err));
      return false;
    }
    // A refused start (e.g. OAuth not configured) leaves the new integration's page to retry from.
    navigate(integrationPath(created));
    await connect.start(created._id);
    return true;
  };

  return <CrmList type="amocrm" crmName={AMO_NAME} busy={create.isPending || connect.isPending} onCreate={onCreate} />;
}
