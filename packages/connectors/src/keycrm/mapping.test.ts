import { describe, expect, it } from 'vitest';
import { SAMPLE_LEAD } from '../kit/contract';
import { buyerMatches, cardBody, fieldMessages, managerOf, markerOf, titleOf } from './mapping';
import { Limiter } from './pace';

describe('a lead as a KeyCRM card', () => {
  it('carries title, pipeline, source, UTM fields, manager and a comment ending with the delivery mark', () => {
    const body = cardBody(
      { ...SAMPLE_LEAD, utm: { source: 'google', campaign: ' spring ', medium: '' } },
      { pipelineId: 2, sourceId: 4, title: '{name} ({source})' },
      { managerId: 6, marker: markerOf('lead-1:kc'), raw: { form: 'site' } },
    );
    expect(body).toMatchObject({
      title: 'Olena Kovalenko (google)',
      pipeline_id: 2,
      source_id: 4,
      manager_id: 6,
      utm_source: 'google',
      utm_campaign: 'spring',
      contact: { full_name: 'Olena Kovalenko', phone: '+380501234567', email: 'olena@example.com' },
    });
    expect(body).not.toHaveProperty('utm_medium');
    expect(body.manager_comment).toContain('Коментар: Call after 18:00');
    expect(body.manager_comment).toContain('"form": "site"');
    expect(body.manager_comment.endsWith(`LeadRelay · ${markerOf('lead-1:kc')}`)).toBe(true);
    // A found buyer is the contact, by id alone.
    expect(cardBody(SAMPLE_LEAD, {}, { buyerId: 900, marker: 'LR-x' }).contact).toEqual({ client_id: 900 });
  });

  it('a mark is the same for one delivery and differs between deliveries', () => {
    expect(markerOf('a')).toBe(markerOf('a'));
    expect(markerOf('a')).not.toBe(markerOf('b'));
    expect(markerOf('a')).toMatch(/^LR-[0-9a-f]{16}$/);
  });

  it('a title template left with no words falls back, and stays within 250 characters', () => {
    expect(titleOf({ custom: {} }, '{name}')).toBe('Заявка');
    expect(titleOf({ name: 'x'.repeat(400), custom: {} })).toHaveLength(250);
  });

  it("confirms KeyCRM's buyer match itself: the phone's last 9 digits, the e-mail without case", () => {
    const buyer = { id: 5, phone: ['+38 (050) 123-45-67'], email: ['Olena@Example.com'] };
    expect(buyerMatches(buyer, { phone: '0501234567' })).toBe(true);
    expect(buyerMatches(buyer, { phone: '+380991234567' })).toBe(false);
    expect(buyerMatches(buyer, { email: 'olena@example.com' })).toBe(true);
    expect(buyerMatches({ ...buyer, id: '5' }, { phone: '0501234567' })).toBe(false);
  });

  it("the manager is distribution's when KeyCRM lists them, else the settings', else none", () => {
    const users = new Set([5, 6]);
    expect(managerOf('6', { managerId: 5 }, users)).toBe(6);
    expect(managerOf('77', { managerId: 5 }, users)).toBe(5);
    expect(managerOf('77', { managerId: 9 }, users)).toBeUndefined();
    expect(managerOf('6abc', {}, users)).toBeUndefined();
  });

  it("reads KeyCRM's 422 field messages; names from the answer stay data", () => {
    expect(
      fieldMessages({ message: 'The given data was invalid.', errors: { __proto__: ['bad'], title: ['Too long.'] } }),
    ).toEqual({ fields: ['title'], text: 'title: Too long.' });
    expect(fieldMessages(JSON.parse('{"errors":{"__proto__":["bad"],"pipeline_id":["Invalid."]}}'))).toEqual({
      fields: ['__proto__', 'pipeline_id'],
      text: '__proto__: bad; pipeline_id: Invalid.',
    });
    expect(fieldMessages({ message: 'Server Error' })).toEqual({ fields: [], text: 'Server Error' });
    expect(fieldMessages('oops')).toEqual({ fields: [], text: '' });
  });
});

describe('the pace', () => {
  it('lets `limit` calls in a window, then gives the next slot a window after the oldest', () => {
    const limiter = new Limiter({ limit: 2, windowMs: 1000, maxWaitMs: 0 });
    const now = 10_000;
    expect(limiter.next(now)).toBe(now);
    // Booking for a deferred delivery takes slots in order: two now, then a window later.
    expect(() => limiter.defer('a', now)).toThrow('KEYCRM_RATE_LIMITED');
    expect(limiter.next(now)).toBe(now + 2000);
    // Its unused slots go back when it is done.
    limiter.release('a');
    expect(limiter.next(now)).toBe(now);
  });

  it("a 429's Retry-After closes the window for every call", () => {
    const limiter = new Limiter({ limit: 60, windowMs: 60_000, maxWaitMs: 20_000 });
    limiter.close(50_000);
    expect(limiter.next(10_000)).toBe(50_000);
  });
});
