// For tests: a loopback HTTP server that records what is posted to it (an emulator's outbound
// webhooks), answering 200 "ok" to each.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  /** The body as it came, text. */
  body: string;
}

export interface TestReceiver {
  /** The server's address, e.g. http://127.0.0.1:54321. */
  url: string;
  /** Every request so far, oldest first; empty it with `received.length = 0`. */
  received: Received[];
  close(): Promise<void>;
}

export async function startTestReceiver(): Promise<TestReceiver> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
