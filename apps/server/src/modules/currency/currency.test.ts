import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app';
import { FALLBACK_USD_RATE } from './currency.service';
import { CURRENCY_TASK } from './currency.tasks';
import { fetchUsdRate } from './nbu';
import { type NbuEmulator, nbuAnswer, startNbuEmulator } from './nbu-emulator';

// The NBU's API is not reachable from tests: its emulator answers what each test sets.
let nbu: NbuEmulator;
let t: TestApp;
const next = (answer: { status: number; body: string }) => nbu.setAnswer(answer.status, answer.body);

beforeAll(async () => {
  nbu = await startNbuEmulator();
  t = await createTestApp({ nbuRatesUrl: nbu.url });
});
afterAll(async () => {
  await t.close();
  await nbu.close();
});

const rates = async () => {
  const res = await t.app.inject({ method: 'GET', url: '/api/legacy/api/currency' });
  expect(res.statusCode).toBe(200);
  return res.json();
};

describe('exchange rates (GET /api/legacy/api/currency)', () => {
  it('signed out, on a fresh install that never reached the bank: the built-in rate, said to be one', async () => {
    expect(await rates()).toMatchObject({ USD: FALLBACK_USD_RATE, UAH: 1, source: 'fallback' });
  });

  it("takes the NBU's official rate; keeps the last good one when the bank fails or answers nonsense", async () => {
    next({ status: 200, body: nbuAnswer(41.7312, '24.11.2026') });
    expect(await t.app.periodic.runNow(CURRENCY_TASK)).toBe('ran');
    const taken = await rates();
    expect(taken).toMatchObject({ USD: 41.7312, UAH: 1, source: 'nbu', rateDate: '2026-11-24' });
    expect(Date.parse(taken.updatedAt)).not.toBeNaN();

    for (const broken of [
      { status: 503, body: 'down' },
      { status: 200, body: 'not json' },
      { status: 200, body: '[]' },
      { status: 200, body: nbuAnswer(0, '25.11.2026') },
      { status: 200, body: JSON.stringify([{ cc: 'EUR', rate: 48.1, exchangedate: '25.11.2026' }]) },
    ]) {
      next(broken);
      expect(await t.app.periodic.runNow(CURRENCY_TASK)).toBe('ran');
      expect(await rates()).toMatchObject({ USD: 41.7312, rateDate: '2026-11-24' });
    }

    next({ status: 200, body: nbuAnswer(41.9, '25.11.2026') });
    await t.app.periodic.runNow(CURRENCY_TASK);
    expect(await rates()).toMatchObject({ USD: 41.9, rateDate: '2026-11-25' });
  });
});

describe('the NBU client', () => {
  it('says why a rate could not be taken', async () => {
    const answer = (status: number, body: string) => async () => new Response(body, { status });
    await expect(fetchUsdRate('http://nbu.test', answer(404, ''))).rejects.toThrow('the NBU answered 404');
    await expect(fetchUsdRate('http://nbu.test', answer(200, '{}'))).rejects.toThrow('no USD rate');
    await expect(fetchUsdRate('http://nbu.test', answer(200, nbuAnswer(41.5, '24.11.2026')))).resolves.toEqual({
      rate: 41.5,
      rateDate: '2026-11-24',
    });
    // A day that does not exist is a broken answer, not a rate dated 2 March.
    await expect(fetchUsdRate('http://nbu.test', answer(200, nbuAnswer(41.5, '30.02.2026')))).rejects.toThrow(
      'no USD rate',
    );
  });
});
