import type { Referral, Referrals } from '@leadrelay/shared';
import { api } from '../../lib/http';

/** A referred account with what it paid and what that earned the referrer (USD). */
export type ReferredAccount = Referral & { paid: number; reward: number };

/** GET /api/legacy/api/admin/referrals: the link, one page of referred accounts, the totals (USD). */
export type ReferralsPage = Omit<Referrals, 'data'> & {
  data: ReferredAccount[];
  /** Everything the referrals have earned. */
  earned: number;
  /** The bonus balance left to spend. */
  credit: number;
  /** The share of each referred card payment credited (0.2 = 20 %). */
  rewardShare: number;
};

export const referralApi = {
  list: (page: number, limit: number) => api.get<ReferralsPage>('/api/legacy/api/admin/referrals', { page, limit }),
};
