import { createRequire } from 'node:module';
import type { FastifyRequest, FastifyServerOptions } from 'fastify';

// Query values that are credentials: the widget's lasting token, OAuth codes and states, API keys.
const SECRET_PARAM = /token|secret|passw|signature|api[-_]?key|^(code|state|key|auth|sig)$/i;

// Paths whose last segment is a credential: the CRMs' stage-change webhooks, /api/{type}/events/{id}/{secret}
// for every connector with a stage watch (modules/crm-events).
const SECRET_PATH = /^(\/api\/[a-z0-9-]+\/events\/[^/?]+\/)[^/?]+/;

/** The request URL for the log: the path and query, with credential values replaced. */
export function loggedUrl(url: string): string {
  const path = url.replace(SECRET_PATH, '$1[redacted]');
  const at = path.indexOf('?');
  if (at < 0) return path;
  const query = new URLSearchParams(path.slice(at + 1));
  for (const key of new Set(query.keys())) if (SECRET_PARAM.test(key)) query.set(key, '[redacted]');
  return `${path.slice(0, at)}?${query.toString()}`;
}

// Fastify's own request serializer, with the URL cleaned.
const serializers = {
  req: (req: FastifyRequest) => ({
    method: req.method,
    url: loggedUrl(req.url),
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  }),
};

/** Whether pino-pretty can be loaded (a production install may leave it out). */
function prettyAvailable(): boolean {
  try {
    createRequire(import.meta.url).resolve('pino-pretty');
    return true;
  } catch {
    return false;
  }
}

/**
 * pino: readable lines for a person watching a terminal (`npm start`), JSON lines otherwise (a
 * pipe, a file, a log collector), and JSON too when pino-pretty is not installed.
 */
export function loggerOptions(
  level: string,
  terminal = process.stdout.isTTY === true,
  pretty = prettyAvailable,
): FastifyServerOptions['logger'] {
  if (!terminal || !pretty()) return { level, serializers };
  return {
    level,
    serializers,
    transport: { target: 'pino-pretty', options: { translateTime: 'HH:MM:ss', ignore: 'pid,hostname' } },
  };
}
