// CRM stages back to the ad platform as conversion events (issue 33; docs/api.md "CRM stages back
// to Meta"): a source integration's settings and the datasets its connection reaches, and the
// account's count. Keys start with 'integrations' (the settings, the datasets), so UPDATE_INTEGRATION
// (a reconnect, a hold) asks them again.
import type {
  ConversionDataset,
  ConversionSettings,
  ConversionSettingsBody,
  ConversionStatistic,
} from '@leadrelay/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, http } from '../http';

const part = encodeURIComponent;
const capiPath = (id: string) => `/api/integrations/${part(id)}/capi`;

export const conversionKeys = {
  settings: (id: string) => ['integrations', id, 'capi'] as const,
  datasets: (id: string) => ['integrations', id, 'capi', 'datasets'] as const,
  statistic: (days: number) => ['conversions', 'statistic', days] as const,
};

/** GET /api/integrations/:id/capi: on or off, the dataset, the mapping, why sending waits. */
export const useConversionSettingsQuery = (id: string) =>
  useQuery({ queryKey: conversionKeys.settings(id), queryFn: () => api.get<ConversionSettings>(capiPath(id)) });

/** GET …/capi/datasets: every dataset (pixel) the integration's connection reaches, asked once it is wanted. */
export const useConversionDatasetsQuery = (id: string, enabled: boolean) =>
  useQuery({
    queryKey: conversionKeys.datasets(id),
    queryFn: async () => (await api.get<{ datasets: ConversionDataset[] }>(`${capiPath(id)}/datasets`)).datasets,
    enabled,
    staleTime: 60_000,
    retry: false,
  });

/** PUT …/capi: the stored settings come back and replace the cached ones. */
export function useSaveConversionsMutation(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: ConversionSettingsBody) => http<ConversionSettings>(capiPath(id), { method: 'PUT', body }),
    onSuccess: (saved) => qc.setQueryData(conversionKeys.settings(id), saved),
  });
}

/** The dashboard's period: the same figure wherever the count is shown. */
export const CONVERSION_DAYS = 30;

/** GET /api/conversions/statistic: events sent in the last 30 days, and how many wait or failed now. */
export const useConversionStatisticQuery = () =>
  useQuery({
    queryKey: conversionKeys.statistic(CONVERSION_DAYS),
    queryFn: () => api.get<ConversionStatistic>('/api/conversions/statistic', { days: CONVERSION_DAYS }),
    staleTime: 60_000,
  });
