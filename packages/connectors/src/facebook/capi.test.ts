// The Conversion Leads event as Meta's payload specification documents it, built from a lead's
// leadgen id and a CRM stage; and Graph's refusals as the kit's errors.
import { describe, expect, it } from 'vitest';
import { PermanentError, RetryableError } from '../kit/errors';
import {
  CAPI_INITIAL_EVENT,
  CAPI_INITIAL_STAGE,
  CAPI_MAX_EVENT_NAME,
  capiData,
  capiFailure,
  cleanEventName,
  crmEvent,
  crmEventId,
} from './capi';
import { GraphError } from './client';

const AT = new Date('2026-11-20T10:15:30.789Z');
const LEAD = '1234567890123456';

describe('crmEvent', () => {
  it('makes the documented Conversion Leads event of the initial stage', () => {
    const event = crmEvent({ leadgenId: LEAD, stage: CAPI_INITIAL_STAGE, at: AT });
    expect(event).toEqual({
      event_name: CAPI_INITIAL_EVENT,
      event_time: 1795169730,
      action_source: 'system_generated',
      event_id: crmEventId(LEAD, CAPI_INITIAL_STAGE),
      user_data: { lead_id: LEAD },
      custom_data: { event_source: 'crm', lead_event_source: 'LeadRelay' },
    });
    expect(CAPI_INITIAL_EVENT).toBe('Lead');
  });

  it('sends event_time in seconds, from a Date or from epoch milliseconds alike', () => {
    const fromMs = crmEvent({ leadgenId: LEAD, stage: '142', eventName: 'Won', at: AT.getTime() });
    expect(fromMs.event_time).toBe(Math.floor(AT.getTime() / 1000));
    expect(String(fromMs.event_time)).toHaveLength(10);
    expect(fromMs.event_name).toBe('Won');
  });

  it('keeps one event_id per lead and stage, whatever the time or the name, and a new one for another stage or lead', () => {
    const first = crmEvent({ leadgenId: LEAD, stage: '142', eventName: 'Won', at: AT });
    const retry = crmEvent({ leadgenId: LEAD, stage: '142', eventName: 'Won', at: AT.getTime() + 60_000 });
    expect(retry.event_id).toBe(first.event_id);
    expect(crmEvent({ leadgenId: LEAD, stage: '143', at: AT }).event_id).not.toBe(first.event_id);
    expect(crmEvent({ leadgenId: '1234567890123457', stage: '142', at: AT }).event_id).not.toBe(first.event_id);
    expect(first.event_id).toMatch(/^lr-[0-9a-f]{40}$/);
  });

  it('names a CRM stage by its own name, and by its key when none is given', () => {
    expect(crmEvent({ leadgenId: LEAD, stage: 'qualified', at: AT }).event_name).toBe('qualified');
    expect(crmEvent({ leadgenId: LEAD, stage: '77', eventName: 'Записався на прийом', at: AT }).event_name).toBe(
      'Записався на прийом',
    );
  });

  it('refuses a lead that has no Meta leadgen id, or a stage with no name or time, with the permanent code', () => {
    for (const leadgenId of ['', 'abc', '12a4', '0123', ' ', '1'.repeat(21), '-5']) {
      const err = catchOf(() => crmEvent({ leadgenId, stage: CAPI_INITIAL_STAGE, at: AT }));
      expect(err, leadgenId).toBeInstanceOf(PermanentError);
      expect((err as PermanentError).code).toBe('FACEBOOK_CAPI_REJECTED');
    }
    expect(catchOf(() => crmEvent({ leadgenId: LEAD, stage: 'x', eventName: ' \u0000\t\n ', at: AT }))).toBeInstanceOf(
      PermanentError,
    );
    expect(catchOf(() => crmEvent({ leadgenId: LEAD, stage: 'x', at: Number.NaN }))).toBeInstanceOf(PermanentError);
  });
});

describe('hostile stage names', () => {
  it('lose their control characters and stay one line', () => {
    const name = 'Won\u0000\r\n\u0007 deal\u2028now\t\u009b';
    expect(cleanEventName(name)).toBe('Won deal now');
    const event = crmEvent({ leadgenId: LEAD, stage: 's', eventName: name, at: AT });
    expect(event.event_name).toBe('Won deal now');
  });

  it('are cut to the longest name we send, never in the middle of an emoji', () => {
    const huge = `${'а'.repeat(CAPI_MAX_EVENT_NAME - 1)}😀😀😀${'b'.repeat(100_000)}`;
    const name = cleanEventName(huge);
    expect(Array.from(name)).toHaveLength(CAPI_MAX_EVENT_NAME);
    expect(name.endsWith('😀')).toBe(true);
    expect(name).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
  });

  it('cannot change the lead_id in the request body, even when they spell one', () => {
    const tricky = 'x","lead_id":"999","y":"';
    const data = capiData([crmEvent({ leadgenId: LEAD, stage: 's', eventName: `"lead_id":"7" ${tricky}`, at: AT })]);
    const [parsed] = JSON.parse(data) as { event_name: string; user_data: { lead_id: unknown } }[];
    expect(parsed?.user_data.lead_id).toBe(Number(LEAD));
    expect(parsed?.event_name).toBe(`"lead_id":"7" ${tricky}`);
  });
});

describe('capiData', () => {
  it('writes lead_id as the JSON integer Meta documents, all of its digits even past 2^53', () => {
    const big = '9999999999999999'; // 16 digits: a JS number would make it 10000000000000000
    const data = capiData([crmEvent({ leadgenId: big, stage: CAPI_INITIAL_STAGE, at: AT })]);
    expect(data).toContain(`"user_data":{"lead_id":${big}}`);
    expect(data).not.toContain(`"${big}"`);
  });

  it('refuses an event whose lead_id was changed into something else', () => {
    const event = crmEvent({ leadgenId: LEAD, stage: 's', at: AT });
    event.user_data.lead_id = '1 OR 1';
    expect(catchOf(() => capiData([event]))).toBeInstanceOf(PermanentError);
  });
});

describe('capiFailure', () => {
  const graph = (code: number, subcode?: number, httpStatus = 400, usage?: Record<string, string>) =>
    new GraphError('Graph says no', { code, subcode, httpStatus, usage, fbtraceId: 'Atrace' });

  it.each([
    [graph(190, 463), 'FACEBOOK_TOKEN'],
    [graph(200), 'FACEBOOK_CAPI_PERMISSION'],
    [graph(10), 'FACEBOOK_CAPI_PERMISSION'],
    [graph(100, 33), 'FACEBOOK_DATASET_NOT_FOUND'],
    [graph(100, 2804019), 'FACEBOOK_CAPI_REJECTED'],
  ])('a Graph refusal is permanent with its code (%#)', (error, code) => {
    const err = capiFailure(error, 'FACEBOOK_DATASET_NOT_FOUND', { request: { method: 'POST', url: 'u' } });
    expect(err).toBeInstanceOf(PermanentError);
    expect((err as PermanentError).code).toBe(code);
    // Meta's answer goes with it, for the lead's log.
    expect((err as PermanentError).trace.response?.body).toMatchObject({ error: { fbtrace_id: 'Atrace' } });
    expect((err as PermanentError).trace.request?.url).toBe('u');
  });

  it("throttling and Meta's own failures are retryable, throttling after the wait Meta asks", () => {
    const buc = JSON.stringify({ '1': [{ type: 'ads_management', estimated_time_to_regain_access: 3 }] });
    const throttled = capiFailure(
      graph(80004, undefined, 400, { 'x-business-use-case-usage': buc }),
      'FACEBOOK_DATASET_NOT_FOUND',
    );
    expect(throttled).toBeInstanceOf(RetryableError);
    expect((throttled as RetryableError).code).toBe('RATE_LIMITED');
    expect((throttled as RetryableError).retryAfterMs).toBe(180_000);
    const later = capiFailure(graph(4, undefined, 400, { 'retry-after': '20' }), 'FACEBOOK_DATASET_NOT_FOUND');
    expect((later as RetryableError).retryAfterMs).toBe(20_000);
    const down = capiFailure(graph(2, undefined, 503), 'FACEBOOK_DATASET_NOT_FOUND');
    expect(down).toBeInstanceOf(RetryableError);
    expect((down as RetryableError).code).toBe('HTTP_5XX');
    const network = capiFailure(
      new GraphError('Graph API POST /1/events timed out', { code: 0, httpStatus: 0 }),
      'FACEBOOK_DATASET_NOT_FOUND',
    );
    expect((network as RetryableError).code).toBe('TIMEOUT');
  });
});

function catchOf(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  return undefined;
}
