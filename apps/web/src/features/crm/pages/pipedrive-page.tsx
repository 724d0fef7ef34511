import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { errorMessage } from '../../../lib/errors';
import { integrationPath } from '../../../lib/integrations/integration-path';
import { useCreateIntegrationMutation } from '../../../lib/integrations/queries';
import { useApp } from '../../../lib/use-app';
import type { CreateValues } from '../components/crm-create-modal';
import { CrmList } from '../components/crm-list';
import { reserveTab } from '../components/new-tab';
import { PD_NAME, useStartPipedriveConnect } from '../components/pipedrive-connect';
import { usePipedriveConnect } from '../queries';

/** /admin/integrations/pipedrive: the account's Pipedrive connections; new ones by OAuth (new tab) or API token. */
export function PipedrivePage() {
  const { t } = useTranslation('crm');
  const { message } = useApp();
  const navigate = useNavigate();
  const create = useCreateIntegrationMutation();
  const oauth = useStartPipedriveConnect();
  const token = usePipedriveConnect();

  const onCreate = async ({ name, method, apiToken }: CreateValues) => {
    // Opened during the click, before any request, so the pop-up blocker lets it through.
    const tab = method === 'oauth' ? reserveTab() : null;
    let created: Awaited<ReturnType<typeof create.mutateAsync>>;
    try {
      created = await create.mutateAsync({ type: 'pipedrive', name });
    } catch (err) {
      tab?.close();
      void message.error(errorMessage(err));
      return false;
    }
    if (tab) await oauth.start(created._id, tab);
    else {
      try {
        await token.mutateAsync({ integrationId: created._id, apiToken: apiToken ?? '' });
        void message.success(t('connection.done', { crm: PD_NAME }));
      } catch (err) {
        // The integration exists; its page offers the token form again.
        void message.error(errorMessage(err));
      }
    }
    navigate(integrationPath(created));
    return true;
  };

  return (
    <CrmList
      type="pipedrive"
      crmName={PD_NAME}
      withToken
      busy={create.isPending || oauth.isPending || token.isPending}
      onCreate={onCreate}
    />
  );
}
