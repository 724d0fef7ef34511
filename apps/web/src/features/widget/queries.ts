import type { WidgetMessageBody } from '@leadrelay/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { widgetApi } from './api';

export const widgetKeys = {
  url: (integrationId: string) => ['integrations', 'widget-url', integrationId] as const,
  data: (token: string, personId: number) => ['widget', 'data', token, personId] as const,
};

export function useWidgetUrlQuery(integrationId: string | undefined, enabled: boolean) {
  return useQuery({
    queryKey: widgetKeys.url(integrationId ?? ''),
    queryFn: () => widgetApi.url(integrationId as string),
    enabled: Boolean(integrationId) && enabled,
    retry: false,
  });
}

export function useWidgetDataQuery(token: string, personId: number | undefined) {
  return useQuery({
    queryKey: widgetKeys.data(token, personId ?? 0),
    queryFn: () => widgetApi.data(token, personId as number),
    enabled: Boolean(token) && personId !== undefined,
    retry: false,
  });
}

/** After a message the contact's last activity has moved: the panel reloads it. */
export function useSendMessageMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: WidgetMessageBody) => widgetApi.send(body),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['widget', 'data'] }),
  });
}
