// For tests: a loopback TCP port free at the moment of asking (for an app's public URL, a child
// server or a Dovecot instance that must know its port before it starts).
import { createServer } from 'node:net';

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}
