import { useQuery } from '@tanstack/react-query';
import { REFERRALS_KEY } from '../../lib/billing/queries';
import { referralApi } from './api';

/** Under 'referrals': refetched with the account when a payment settles (lib/realtime). */
export function useReferralsQuery(page: number, limit: number) {
  return useQuery({
    queryKey: [...REFERRALS_KEY, { page, limit }],
    queryFn: () => referralApi.list(page, limit),
    placeholderData: (prev) => prev,
  });
}
