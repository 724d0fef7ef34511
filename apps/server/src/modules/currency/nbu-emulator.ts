// A stand-in for the National Bank of Ukraine's exchange-rate API on loopback (EMULATORS=true and
// the tests): answers the USD rate in the bank's shape, or whatever a test sets.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface NbuEmulator {
  /** The URL NBU_RATES_URL takes. */
  url: string;
  /** The official rate it answers from now on, dated today. */
  setRate(rate: number): void;
  /** Any answer instead (a failing or broken bank). */
  setAnswer(status: number, body: string): void;
  close(): Promise<void>;
}

const today = () => {
  const d = new Date();
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(d.getUTCDate())}.${two(d.getUTCMonth() + 1)}.${d.getUTCFullYear()}`;
};

export const nbuAnswer = (rate: number, date = today()) =>
  JSON.stringify([{ r030: 840, txt: 'Долар США', rate, cc: 'USD', exchangedate: date }]);

export async function startNbuEmulator(rate = 41.5): Promise<NbuEmulator> {
  let answer = { status: 200, body: nbuAnswer(rate) };
  const server = createServer((_req, res) => {
    res.writeHead(answer.status, { 'content-type': 'application/json; charset=utf-8' });
    res.end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/NBUStatService/v1/statdirectory/exchange?valcode=USD&json`,
    setRate: (next) => {
      answer = { status: 200, body: nbuAnswer(next) };
    },
    setAnswer: (status, body) => {
      answer = { status, body };
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
