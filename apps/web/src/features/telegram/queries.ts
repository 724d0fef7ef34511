import type { TelegramConnectBody } from '@leadrelay/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { integrationKeys } from '../../lib/integrations/queries';
import { telegramApi } from './api';

const accountKey = (id: string) => ['telegram', 'account', id] as const;

export function useTelegramAccount(integrationId: string) {
  return useQuery({ queryKey: accountKey(integrationId), queryFn: () => telegramApi.account(integrationId) });
}

export function useConnectTelegram(integrationId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: { mode: 'own'; botToken: string } | { mode: 'platform' }) =>
      telegramApi.connect({ ...body, integrationId } satisfies TelegramConnectBody),
    onSuccess: (account) => {
      qc.setQueryData(accountKey(integrationId), account);
      void qc.invalidateQueries({ queryKey: integrationKeys.all });
      void qc.invalidateQueries({ queryKey: ['telegram', 'bots'] });
    },
  });
}
