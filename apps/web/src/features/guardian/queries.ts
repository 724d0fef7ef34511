import type { GuardianSettings } from '@leadrelay/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { guardianApi } from './api';

export const guardianKeys = {
  alerts: ['guardian', 'alerts'] as const,
  reconciliation: (days: number) => ['guardian', 'reconciliation', days] as const,
  settings: ['guardian', 'settings'] as const,
  telegram: ['guardian', 'telegram'] as const,
};

export const useGuardianAlertsQuery = () => useQuery({ queryKey: guardianKeys.alerts, queryFn: guardianApi.alerts });

export const useReconciliationQuery = (days: number) =>
  useQuery({
    queryKey: guardianKeys.reconciliation(days),
    queryFn: () => guardianApi.reconciliation(days),
    placeholderData: (prev) => prev,
  });

export const useGuardianSettingsQuery = () =>
  useQuery({ queryKey: guardianKeys.settings, queryFn: guardianApi.settings });

export function useSaveGuardianSettingsMutation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: GuardianSettings) => guardianApi.saveSettings(body),
    onSuccess: (saved) => client.setQueryData(guardianKeys.settings, saved),
  });
}

export const useOwnerTelegramQuery = () => useQuery({ queryKey: guardianKeys.telegram, queryFn: guardianApi.telegram });

export const useOwnerTelegramLinkCodeMutation = () => useMutation({ mutationFn: guardianApi.telegramLinkCode });

export function useOwnerTelegramUnlinkMutation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: guardianApi.telegramUnlink,
    onSuccess: () => client.invalidateQueries({ queryKey: guardianKeys.telegram }),
  });
}
