import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app';

let t: TestApp;
let dist: string;
beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), 'lr-web-'));
  mkdirSync(join(dist, 'assets'));
  writeFileSync(join(dist, 'index.html'), '<!doctype html><title>LeadRelay</title>');
  writeFileSync(join(dist, 'assets', 'app-1234.js'), 'console.log(1)');
  writeFileSync(join(dist, 'favicon.svg'), '<svg/>');
  t = await createTestApp({ webDist: dist });
});
afterAll(async () => {
  await t.close();
  rmSync(dist, { recursive: true, force: true });
});

const get = (url: string) => t.app.inject({ method: 'GET', url });

describe('built web app', () => {
  it('serves files and falls back to index.html for app routes', async () => {
    const asset = await get('/assets/app-1234.js');
    expect([asset.statusCode, asset.body]).toEqual([200, 'console.log(1)']);
    expect(asset.headers['cache-control']).toMatch(/immutable/);
    expect((await get('/favicon.svg')).body).toBe('<svg/>');
    for (const url of ['/', '/signin', '/en/admin/integrations?x=1', '/no/such/page', '/assets/missing.js']) {
      const res = await get(url);
      expect([res.statusCode, res.body], url).toEqual([200, '<!doctype html><title>LeadRelay</title>']);
    }
  });

  it('never serves files outside the build folder', async () => {
    for (const url of ['/../package.json', '/%2e%2e/package.json', '/..%2f..%2fetc/passwd', '/%E0%A4%A']) {
      const res = await get(url);
      expect(res.body, url).not.toMatch(/"name"|root:/);
    }
  });

  it('keeps /api, /auth and /socket.io for the server', async () => {
    for (const url of ['/api/nope', '/auth/nope', '/socket.io/']) {
      const res = await get(url);
      expect([res.statusCode, res.json().code], url).toEqual([404, 'NOT_FOUND']);
    }
    expect((await get('/api/health')).json()).toEqual({ ok: true });
  });
});
