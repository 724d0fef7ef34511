import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { errorMessage } from '../../lib/errors';
import { integrationPath } from '../../lib/integrations/integration-path';
import { useCreateIntegrationMutation } from '../../lib/integrations/queries';
import { useApp } from '../../lib/use-app';
import type { ConnectStep, NewConnection } from './connect-dialog';
import { reserveTab, useCredentialsConnect, useOAuthStart } from './connect-flow';

/**
 * A new connection from the list page's dialog: the integration is made, then connected the way chosen
 * (the provider's consent here or in a new tab, or the credentials typed in), then its page opens.
 * Resolves true when the dialog may close (not while the browser is leaving for the provider); a refused connect leaves the new integration's page to retry from.
 */
export function useNewConnection(slug: string, crm: string) {
  const { t } = useTranslation('crm');
  const { message } = useApp();
  const navigate = useNavigate();
  const create = useCreateIntegrationMutation();
  const oauth = useOAuthStart(crm);
  const credentials = useCredentialsConnect();
  // What the dialog says it is doing, from the first click until the page changes.
  const [step, setStep] = useState<ConnectStep | null>(null);

  const onCreate = async ({ name, method, values }: NewConnection): Promise<boolean> => {
    // Opened during the click, before any request, so the pop-up blocker lets it through.
    const tab = method.kind === 'oauth' && method.tab ? reserveTab() : null;
    setStep('creating');
    let created: Awaited<ReturnType<typeof create.mutateAsync>>;
    try {
      created = await create.mutateAsync({ type: slug, name });
    } catch (err) {
      tab?.close();
      setStep(null);
      void message.error(errorMessage(err));
      return false;
    }
    if (method.kind === 'oauth') {
      setStep('opening');
      if (tab) {
        await oauth.start(created._id, method, tab);
        setStep(null);
        navigate(integrationPath(created));
        return true;
      }
      // Here the browser goes to the provider: the dialog stays open and busy until it leaves; a
      // refusal opens the new integration's page, to connect again from.
      if (await oauth.start(created._id, method)) return false;
      setStep(null);
      navigate(integrationPath(created));
      return true;
    }
    setStep('connecting');
    try {
      await credentials.mutateAsync({ id: created._id, method, values });
      void message.success(t('connection.done', { crm }));
    } catch (err) {
      void message.error(
        method.sayFailed ? `${t('connection.failed', { crm })}: ${errorMessage(err)}` : errorMessage(err),
      );
    }
    setStep(null);
    navigate(integrationPath(created));
    return true;
  };

  return { onCreate, step, busy: step !== null || create.isPending || oauth.isPending || credentials.isPending };
}
