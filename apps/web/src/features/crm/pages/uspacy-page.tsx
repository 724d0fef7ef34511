import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { errorMessage } from '../../../lib/errors';
import { integrationPath } from '../../../lib/integrations/integration-path';
import { useCreateIntegrationMutation } from '../../../lib/integrations/queries';
import { useApp } from '../../../lib/use-app';
import { CrmList } from '../components/crm-list';
import { toConnectBody, US_NAME } from '../components/uspacy-connect-fields';
import { UspacyCreateModal, type UspacyCreateValues } from '../components/uspacy-connect-modal';
import { useUspacyConnect } from '../queries';

/** /admin/integrations/uspacy: the account's Uspacy connections; a new one by its incoming webhook or by signing in. */
export function UspacyPage() {
  const { t } = useTranslation('crm');
  const { message } = useApp();
  const navigate = useNavigate();
  const create = useCreateIntegrationMutation();
  const connect = useUspacyConnect();

  const onCreate = async ({ name, ...values }: UspacyCreateValues) => {
    let created: Awaited<ReturnType<typeof create.mutateAsync>>;
    try {
      created = await create.mutateAsync({ type: 'uspacy', name });
    } catch (err) {
      void message.error(errorMessage(err));
      return false;
    }
    try {
      await connect.mutateAsync(toConnectBody(created._id, values));
      void message.success(t('connection.done', { crm: US_NAME }));
    } catch (err) {
      // The integration exists; its page offers connecting again.
      void message.error(`${t('connection.failed', { crm: US_NAME })}: ${errorMessage(err)}`);
    }
    navigate(integrationPath(created));
    return true;
  };

  return (
    <CrmList<UspacyCreateValues>
      type="uspacy"
      crmName={US_NAME}
      busy={create.isPending || connect.isPending}
      onCreate={onCreate}
      modal={(props) => <UspacyCreateModal {...props} />}
    />
  );
}
