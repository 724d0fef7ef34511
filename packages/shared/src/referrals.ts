import { z } from 'zod';

/** A referred account as its referrer sees it: the login masked (a***@gmail.com), never whole. */
export const ZReferral = z.object({
  _id: z.string(),
  login: z.string(),
  createdAt: z.string(),
  /** demo: in its demo period; paid: on a plan; expired: its demo or plan ran out. */
  status: z.enum(['demo', 'paid', 'expired']),
  /** What the account has paid so far, USD. */
  paid: z.number(),
  /** What its payments credited to the referrer, USD. */
  reward: z.number(),
});
export type Referral = z.infer<typeof ZReferral>;

export const ZReferrals = z.object({
  /** The code the account's link carries as ?promo=CODE. */
  code: z.string(),
  /** The sign-up page with the code: what the account shares. */
  link: z.string(),
  data: z.array(ZReferral),
  total: z.number().int(),
  /** Everything the referrals have earned the account, USD. */
  earned: z.number(),
  /** The balance left to spend on the next payment (the user's credit), USD. */
  credit: z.number(),
  /** The share of each referred payment credited (0.2 = 20 %). */
  rewardShare: z.number(),
});
export type Referrals = z.infer<typeof ZReferrals>;

/** Hides a login but its first letter and the domain: "olena@gmail.com" → "o***@gmail.com". */
export function maskLogin(login: string): string {
  const at = login.lastIndexOf('@');
  if (at <= 0) return `${login.slice(0, 1)}***`;
  return `${login.slice(0, 1)}***${login.slice(at)}`;
}
