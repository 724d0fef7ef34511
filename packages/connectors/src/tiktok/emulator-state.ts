// What the TikTok emulator keeps: the app, one TikTok for Business user, the ad accounts that
// authorised the app, their Instant Forms, tokens (revocable), consent codes, LEAD subscriptions and
// leads. Ids are 19-digit numbers as text, as TikTok's are.
import { randomBytes, randomInt } from 'node:crypto';

export interface EmulatedAdvertiser {
  id: string;
  name: string;
}

export interface EmulatedForm {
  id: string;
  advertiserId: string;
  title: string;
  status: 'PUBLISHED' | 'EDITED';
  fields: string[];
}

export interface EmulatedSubscription {
  id: string;
  callbackUrl: string;
  advertiserId: string;
  token: string;
}

export interface EmulatedLead {
  id: string;
  advertiserId: string;
  pageId: string;
  createTime: number;
  changes: { field: string; value: string }[];
  isTest: boolean;
}

export interface TiktokState {
  user: { id: string; name: string; email: string };
  advertisers: EmulatedAdvertiser[];
  forms: EmulatedForm[];
  /** token → revoked */
  tokens: Map<string, { revoked: boolean }>;
  /** consent code → used */
  codes: Map<string, boolean>;
  subscriptions: Map<string, EmulatedSubscription>;
  leads: Map<string, EmulatedLead>;
}

/** The seed every fresh emulator starts with (the e2e test and the demo pick these). */
export const TIKTOK_SEED = {
  user: { id: '7000000000000000001', name: 'Olena Kovalenko', email: 'olena@kyiv-dental.example' },
  advertisers: [
    { id: '7012345678901234567', name: 'Kyiv Dental Studio Ads' },
    { id: '7012345678901234568', name: 'Lviv Coffee Ads' },
  ],
  forms: {
    consultation: '7100000000000000001',
    booking: '7100000000000000002',
    coffee: '7100000000000000003',
  },
} as const;

export function seedState(): TiktokState {
  const [dental, coffee] = TIKTOK_SEED.advertisers;
  return {
    user: { ...TIKTOK_SEED.user },
    advertisers: TIKTOK_SEED.advertisers.map((a) => ({ ...a })),
    forms: [
      {
        id: TIKTOK_SEED.forms.consultation,
        advertiserId: dental.id,
        title: 'Free consultation',
        status: 'PUBLISHED',
        fields: ['name', 'phone_number', 'email', 'preferred_clinic'],
      },
      {
        id: TIKTOK_SEED.forms.booking,
        advertiserId: dental.id,
        title: 'Book a cleaning',
        status: 'EDITED',
        fields: ['name', 'phone_number'],
      },
      {
        id: TIKTOK_SEED.forms.coffee,
        advertiserId: coffee.id,
        title: 'Coffee tasting',
        status: 'PUBLISHED',
        fields: ['name', 'email'],
      },
    ],
    tokens: new Map(),
    codes: new Map(),
    subscriptions: new Map(),
    leads: new Map(),
  };
}

/** A 19-digit id as text (TikTok's ids do not fit a JS number). */
export const newId = (): string =>
  `7${String(randomInt(100_000_000, 999_999_999))}${String(randomInt(100_000_000, 999_999_999))}`;

export const newToken = (): string => randomBytes(20).toString('hex');
