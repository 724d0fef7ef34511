// Facebook answers shaped like packages/shared/src/facebook.ts; tests only.
import type { FbAccountState, FbConnection, Integration } from '@leadrelay/shared';
import { makeIntegration } from '../../../test/integration-fixtures';

export const CONN_ID = '77777777-7777-4777-8777-777777777777';
export const CONN2_ID = '88888888-8888-4888-8888-888888888888';
export const FB_INT_ID = '99999999-9999-4999-8999-999999999999';
export const PAGE_ID = '2001';
export const FORM_ID = '3001';

const inDays = (n: number) => new Date(Date.now() + n * 86_400_000 + 3_600_000).toISOString();

export const connection = (overrides: Partial<FbConnection> = {}): FbConnection => ({
  _id: CONN_ID,
  fbUserId: '1001',
  name: 'Olena Kovalenko',
  email: 'olena@clinic.ua',
  status: 'ok',
  statusReason: null,
  expiresAt: inDays(45),
  createdAt: '2026-03-01T10:00:00.000Z',
  pages: [
    { id: PAGE_ID, name: 'Smile Dental Kyiv', category: 'Dentist', isSubscribed: false },
    { id: '2002', name: 'Coffee Ranok', category: 'Cafe', isSubscribed: true },
  ],
  ...overrides,
});

export const brokenConnection = (overrides: Partial<FbConnection> = {}) =>
  connection({
    _id: CONN2_ID,
    fbUserId: '1002',
    name: 'Ivan Petrenko',
    status: 'broken',
    statusReason: 'Error validating access token: Session has expired (code 190/463)',
    expiresAt: inDays(-2),
    pages: [{ id: PAGE_ID, name: 'Smile Dental Kyiv', category: 'Dentist', isSubscribed: true }],
    ...overrides,
  });

export const pageState = (overrides: Partial<FbAccountState> = {}): FbAccountState => ({
  id: PAGE_ID,
  name: 'Smile Dental Kyiv',
  isSubscribed: false,
  leadForms: [
    {
      id: FORM_ID,
      name: 'Free consultation',
      status: 'ACTIVE',
      locale: 'uk_UA',
      questions: [
        { key: 'full_name', label: 'Full name', type: 'FULL_NAME' },
        { key: 'phone_number', label: 'Phone number', type: 'PHONE' },
        { key: 'preferred_clinic', label: 'Which clinic is closer?', type: 'CUSTOM' },
      ],
    },
    { id: '3002', name: 'Old promo', status: 'ARCHIVED', locale: null, questions: [] },
  ],
  ...overrides,
});

export const fbIntegration = (overrides: Partial<Integration> = {}) =>
  makeIntegration({
    _id: FB_INT_ID,
    name: 'Smile Dental — consultation',
    type: 'facebook',
    kind: 'source',
    isConnected: true,
    settings: { fbConnectionId: CONN_ID, fbPageId: PAGE_ID, fbFormId: FORM_ID },
    ...overrides,
  });
