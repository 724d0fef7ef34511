import { describe, expect, it } from 'vitest';
import { loadEnv } from '../app-modules';
import { StartupError } from '../db/startup-error';
import { createTestApp } from '../test/test-app';

describe('process roles', () => {
  it('a worker process serves only its health check', async () => {
    const t = await createTestApp({ role: 'worker' });
    try {
      expect((await t.app.inject({ method: 'GET', url: '/api/health' })).json()).toEqual({ ok: true });
      expect((await t.app.inject({ method: 'GET', url: '/api/hook' })).statusCode).toBe(404);
      expect((await t.app.inject({ method: 'POST', url: '/api/hooks/in/x', payload: {} })).statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });

  it('an api process serves the API and the webhook URL', async () => {
    const t = await createTestApp({ role: 'api', worker: true });
    try {
      const res = await t.app.inject({ method: 'POST', url: '/api/hooks/in/unknown', payload: { name: 'x' } });
      expect(res.json()).toMatchObject({ code: 'INTEGRATION_NOT_FOUND' });
    } finally {
      await t.close();
    }
  });

  it('reads ROLE from the environment: all by default, api, worker, nothing else', () => {
    const DATABASE_URL = 'postgres://app@db.internal/leadrelay';
    expect(loadEnv({}).role).toBe('all');
    expect(loadEnv({ ROLE: 'api', DATABASE_URL }).role).toBe('api');
    expect(loadEnv({ ROLE: 'worker', DATABASE_URL }).role).toBe('worker');
    expect(() => loadEnv({ ROLE: 'both' })).toThrow(/ROLE/);
  });

  it('refuses ROLE=api or worker on the embedded database, which belongs to one app, in one line', () => {
    for (const role of ['api', 'worker']) {
      expect(() => loadEnv({ ROLE: role })).toThrow(
        new StartupError(
          `ROLE=${role} runs beside other processes on one PostgreSQL server: set DATABASE_URL (the embedded database belongs to one app)`,
        ),
      );
    }
  });

  it('reads the worker concurrency and the pool sizes: bounded whole numbers with defaults', () => {
    expect(loadEnv({})).toMatchObject({ workerConcurrency: 256, dbPoolSize: 10, workerDbPoolSize: 4 });
    expect(loadEnv({ WORKER_CONCURRENCY: '128', DB_POOL_SIZE: '20', WORKER_DB_POOL_SIZE: '6' })).toMatchObject({
      workerConcurrency: 128,
      dbPoolSize: 20,
      workerDbPoolSize: 6,
    });
    for (const bad of ['0', '1025', '1.5', 'many']) {
      expect(() => loadEnv({ WORKER_CONCURRENCY: bad })).toThrow(/WORKER_CONCURRENCY/);
    }
    expect(() => loadEnv({ DB_POOL_SIZE: '0' })).toThrow(/DB_POOL_SIZE/);
    expect(() => loadEnv({ WORKER_DB_POOL_SIZE: '51' })).toThrow(/WORKER_DB_POOL_SIZE/);
  });
});
