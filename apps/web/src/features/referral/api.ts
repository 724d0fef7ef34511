import type { Referrals } from '@leadrelay/shared';
import { api } from '../../lib/http';

export const referralApi = {
  /** The link, one page of referred accounts (what each paid and earned), the totals (USD). */
  list: (page: number, limit: number) => api.get<Referrals>('/api/legacy/api/admin/referrals', { page, limit }),
};
