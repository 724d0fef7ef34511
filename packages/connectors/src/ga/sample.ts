import type { Lead } from '@leadrelay/shared';

/** The lead "send a test lead" builds its event from when the screen gives none. */
export const SAMPLE_TEST_LEAD: Lead = {
  name: 'Test lead',
  phone: '+380501234567',
  email: 'test-lead@example.com',
  utm: { source: 'leadrelay', medium: 'test', campaign: 'ga4-check' },
  custom: { _ga: 'GA1.1.1234567890.1700000000' },
};
