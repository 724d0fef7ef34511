import type { FastifyServerOptions } from 'fastify';

/** pino, pretty only for a person watching a terminal. */
export function loggerOptions(level: string): FastifyServerOptions['logger'] {
  if (!process.stdout.isTTY) return { level };
  return {
    level,
    transport: { target: 'pino-pretty', options: { translateTime: 'HH:MM:ss', ignore: 'pid,hostname' } },
  };
}
