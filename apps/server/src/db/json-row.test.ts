import { describe, expect, it } from 'vitest';
import { rowFromJson } from './json-row';
import { deliveries, leads } from './schema';

// A row as PostgreSQL's to_jsonb sends it: column names, timestamps as text, bigints as numbers.
describe('rowFromJson', () => {
  it('gives the row Drizzle would: TypeScript names, Dates, numbers, nulls', () => {
    const row = rowFromJson(deliveries, {
      id: 'd1',
      account_id: 'a1',
      lead_id: 'l1',
      hook_id: 'h1',
      destination_id: 'i1',
      status: 'running',
      attempts: 2,
      next_attempt_at: '2026-11-28T22:20:38.123456+00:00',
      first_attempt_at: null,
      lease_until: '2026-11-28T22:21:08.5+00:00',
      leased_by: 'w1',
      idempotency_key: 'l1:i1',
      last_error: null,
      external_id: null,
      delivered_at: null,
      seq: 9_007_199_254,
      created_at: '2026-11-28T22:20:38+00:00',
    });
    expect(row).toEqual({
      id: 'd1',
      accountId: 'a1',
      leadId: 'l1',
      hookId: 'h1',
      destinationId: 'i1',
      status: 'running',
      attempts: 2,
      nextAttemptAt: new Date('2026-11-28T22:20:38.123Z'),
      firstAttemptAt: null,
      leaseUntil: new Date('2026-11-28T22:21:08.500Z'),
      leasedBy: 'w1',
      idempotencyKey: 'l1:i1',
      lastError: null,
      externalId: null,
      deliveredAt: null,
      seq: 9_007_199_254,
      createdAt: new Date('2026-11-28T22:20:38Z'),
    });
  });

  it('leaves JSON columns as they came: a text that looks like JSON stays text', () => {
    const row = rowFromJson(leads, { id: 'l1', fields: { name: 'Olena', __proto__x: 1 }, raw: '123' });
    expect(row?.raw).toBe('123');
    expect(row?.fields).toEqual({ name: 'Olena', __proto__x: 1 });
  });

  it('takes no member of the prototype for a column the JSON lacks', () => {
    const json = Object.create({ status: 'delivered' }) as Record<string, unknown>;
    json.id = 'd1';
    const row = rowFromJson(deliveries, json);
    expect(row?.status).toBeNull();
    expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
  });

  it('is null for an outer join that found nothing', () => {
    expect(rowFromJson(leads, null)).toBeNull();
  });
});
