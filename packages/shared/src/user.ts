import { z } from 'zod';
import { BILLING_PERIODS, ZPaymentInfo } from './billing';
import { LOCALES, ROLES } from './constants';

export const ZRole = z.enum(ROLES);
export const ZLocale = z.enum(LOCALES);

/** User (me), spec section 3, plus the profile fields of the account page. */
export const ZUser = z.object({
  _id: z.string(),
  login: z.string(),
  role: ZRole,
  active: z.boolean(),
  /** ISO date (YYYY-MM-DD) the account is paid or in demo until; null for staff (never expires). */
  expDate: z.string().nullable(),
  credit: z.number(),
  planId: z.string().nullable(),
  /** The plan paid for: its title (in the account's language when paid), id and period. */
  subscription: z
    .object({
      title: z.string(),
      planId: z.string(),
      period: z.enum(BILLING_PERIODS).optional(),
      /** The plan's title in each language (the page shows its own); absent when the plan is gone. */
      titles: z.object({ uk: z.string(), en: z.string() }).optional(),
    })
    .nullable(),
  /** The saved card (what can be shown of it), null when none is saved. */
  paymentInfo: ZPaymentInfo.nullable(),
  name: z.string(),
  phone: z.string(),
  company: z.string(),
  lang: ZLocale,
  /** The account's IANA time zone (Europe/Kyiv unless changed): the day boundary of every chart and report. */
  timeZone: z.string(),
  emailConfirmed: z.boolean(),
  createdAt: z.string(),
});
export type User = z.infer<typeof ZUser>;
