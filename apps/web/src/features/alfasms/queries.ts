// Keys start with 'integrations', so UPDATE_INTEGRATION (a reconnect, a broken connection) refreshes
// the balance and the log with the integration itself.
import type { Integration } from '@leadrelay/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type SmsLogParams, smsApi } from './api';

export const smsKeys = {
  balance: (id: string) => ['integrations', 'alfasms', id, 'balance'] as const,
  log: (q: SmsLogParams) => ['integrations', 'alfasms', q.integrationId ?? '', 'log', q] as const,
};

/** The balance of a connected integration; asked again at most once a minute. */
export const useSmsBalance = (i: Integration) =>
  useQuery({
    queryKey: smsKeys.balance(i._id),
    queryFn: () => smsApi.balance(i._id),
    enabled: i.isConnected,
    staleTime: 60_000,
    retry: false,
  });

export const useSmsLog = (q: SmsLogParams) =>
  useQuery({ queryKey: smsKeys.log(q), queryFn: () => smsApi.log(q), placeholderData: keepPreviousData });
