import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app';
import { FALLBACK_USD_RATE } from './currency.service';
import { CURRENCY_TASK } from './currency.tasks';
import { fetchUsdRate } from './nbu';

// A stand-in for the NBU's API (the real one is not reachable from tests): answers what `next` says.
let next: { status: number; body: string } = { status: 200, body: '[]' };
let nbu: Server;
let url: string;
let t: TestApp;

const nbuAnswer = (rate: number, date: string) =>
  JSON.stringify([{ r030: 840, txt: 'Долар США', rate, cc: 'USD', exchangedate: date }]);

beforeAll(async () => {
  nbu = createServer((_req, res) => {
    res.writeHead(next.status, { 'content-type': 'application/json' });
    res.end(next.body);
  });
  await new Promise<void>((resolve) => nbu.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(nbu.address() as AddressInfo).port}/NBUStatService/v1/statdirectory/exchange?valcode=USD&json`;
  t = await createTestApp({ nbuRatesUrl: url });
});
afterAll(async () => {
  await t.close();
  await new Promise((resolve) => nbu.close(resolve));
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
    next = { status: 200, body: nbuAnswer(41.7312, '24.11.2026') };
    expect(await t.app.periodic.runNow(CURRENCY_TASK)).toBe('ran');
    const taken = await rates();
    expect(taken).toMatchObject({ USD: 41.7312, UAH: 1, source: 'nbu', rateDate: '24.11.2026' });
    expect(Date.parse(taken.updatedAt)).not.toBeNaN();

    for (const broken of [
      { status: 503, body: 'down' },
      { status: 200, body: 'not json' },
      { status: 200, body: '[]' },
      { status: 200, body: nbuAnswer(0, '25.11.2026') },
      { status: 200, body: JSON.stringify([{ cc: 'EUR', rate: 48.1, exchangedate: '25.11.2026' }]) },
    ]) {
      next = broken;
      expect(await t.app.periodic.runNow(CURRENCY_TASK)).toBe('ran');
      expect(await rates()).toMatchObject({ USD: 41.7312, rateDate: '24.11.2026' });
    }

    next = { status: 200, body: nbuAnswer(41.9, '25.11.2026') };
    await t.app.periodic.runNow(CURRENCY_TASK);
    expect(await rates()).toMatchObject({ USD: 41.9, rateDate: '25.11.2026' });
  });
});

describe('the NBU client', () => {
  it('says why a rate could not be taken', async () => {
    const answer = (status: number, body: string) => async () => new Response(body, { status });
    await expect(fetchUsdRate('http://nbu.test', answer(404, ''))).rejects.toThrow('the NBU answered 404');
    await expect(fetchUsdRate('http://nbu.test', answer(200, '{}'))).rejects.toThrow('no USD rate');
    await expect(fetchUsdRate('http://nbu.test', answer(200, nbuAnswer(41.5, '24.11.2026')))).resolves.toEqual({
      rate: 41.5,
      rateDate: '24.11.2026',
    });
  });
});
