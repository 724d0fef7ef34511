// A webhook receiver for the Graph emulator's tests: answers Meta's verification handshake, records
// every POST with its raw bytes and headers, and can fail the next tries.
import { setOwn } from '@leadrelay/shared';
import Fastify from 'fastify';

export interface ReceivedHook {
  rawBody: string;
  headers: Record<string, string>;
  status: number;
}

export interface TestReceiver {
  url: string;
  received: ReceivedHook[];
  /** Answer the next n POSTs with this status. */
  failNext(n: number, status?: number): void;
  /** Answer the verification GET without echoing the challenge. */
  setEcho(isEchoing: boolean): void;
  close(): Promise<void>;
}

export async function startTestReceiver(verifyToken: string): Promise<TestReceiver> {
  const app = Fastify({ logger: false, forceCloseConnections: true });
  const received: ReceivedHook[] = [];
  let failures = 0;
  let failStatus = 500;
  let isEchoing = true;
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));
  app.get('/hook', async (req, reply) => {
    const q = req.query as Record<string, string>;
    if (!isEchoing || q['hub.mode'] !== 'subscribe' || q['hub.verify_token'] !== verifyToken) {
      return reply.code(403).send('forbidden');
    }
    return reply.type('text/plain').send(q['hub.challenge']);
  });
  app.post('/hook', async (req, reply) => {
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') setOwn(headers, k, v);
    const status = failures > 0 ? failStatus : 200;
    if (failures > 0) failures -= 1;
    received.push({ rawBody: typeof req.body === 'string' ? req.body : '', headers, status });
    return reply.code(status).send(status === 200 ? 'EVENT_RECEIVED' : 'nope');
  });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    url: `${address}/hook`,
    received,
    failNext(n, status = 500) {
      failures = n;
      failStatus = status;
    },
    setEcho(value) {
      isEchoing = value;
    },
    close: () => app.close(),
  };
}
