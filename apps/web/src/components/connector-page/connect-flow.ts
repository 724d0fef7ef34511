// Making a connection the ways a manifest's `page.connect` declares (kit/manifest.ts ConnectMethod):
// through a provider's consent page (here, or in a new tab), or with credentials typed in.
import type { CredentialsMethod, OAuthMethod } from '@leadrelay/connectors/manifest';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { answerField, runCall, runChain } from '../../lib/connectors/calls';
import { errorMessage } from '../../lib/errors';
import { integrationKeys } from '../../lib/integrations/queries';
import { useApp } from '../../lib/use-app';
import { fieldsOf, outputValues, type Values } from './field-values';

/**
 * A tab opened during the click (so no pop-up blocker stops it) and sent to a URL once the server
 * has answered; when the browser refused the tab, the URL opens in this one.
 */
export function reserveTab() {
  const tab = window.open('', '_blank');
  return {
    go(url: string) {
      if (tab && !tab.closed) {
        tab.opener = null;
        tab.location.href = url;
      } else window.location.assign(url);
    },
    close() {
      tab?.close();
    },
  };
}

export type ReservedTab = ReturnType<typeof reserveTab>;

/**
 * Starts a provider's consent: the browser goes there, or a new tab does (this page hears of the new
 * connection through UPDATE_INTEGRATION). A refusal (OAuth not set up) is said and the tab closed.
 */
export function useOAuthStart(crm: string) {
  const { t } = useTranslation('crm');
  const { message } = useApp();
  const consent = useMutation({
    mutationFn: async ({ id, method }: { id: string; method: OAuthMethod<string> }) => {
      const url = answerField(await runChain(method.start, id), method.url);
      if (!url) throw new Error('the start call answered no address');
      return url;
    },
  });
  // Once sent to the provider, this page stays busy until the browser leaves it.
  const [leaving, setLeaving] = useState(false);
  const start = async (id: string, method: OAuthMethod<string>, tab = method.tab ? reserveTab() : null) => {
    try {
      const url = await consent.mutateAsync({ id, method });
      if (tab) {
        tab.go(url);
        void message.info(t('connection.tabOpened', { crm }));
      } else {
        setLeaving(true);
        window.location.assign(url);
      }
      return true;
    } catch (err) {
      tab?.close();
      void message.error(errorMessage(err));
      return false;
    }
  };
  return { start, isPending: consent.isPending || leaving };
}

/** Sends a credentials method's values with its call; the integration and what is read from the service are read again. */
export function useCredentialsConnect() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, method, values }: { id: string; method: CredentialsMethod<string>; values: Values }) =>
      runCall(method.call, id, outputValues(fieldsOf(method.items), values)),
    onSuccess: () => void qc.invalidateQueries({ queryKey: integrationKeys.all }),
  });
}
