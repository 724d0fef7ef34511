// No test here sends traffic off loopback: public addresses are only checked (checkUrl / isBlockedAddress),
// and DNS names go through a fake resolver.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type HttpEmulator, startHttpEmulator } from '../http/emulator';
import { PermanentError, RetryableError } from './errors';
import {
  checkUrl,
  createSafeFetch,
  endpointAllowed,
  isBlockedAddress,
  type LookupFn,
  type ResolvedAddress,
} from './safe-fetch';

const v4 = (address: string): ResolvedAddress => ({ address, family: 4 });
const v6 = (address: string): ResolvedAddress => ({ address, family: 6 });

const DNS: Record<string, ResolvedAddress[]> = {
  'ten.evil.test': [v4('10.1.2.3')],
  'home.evil.test': [v4('192.168.0.1')],
  'meta.evil.test': [v4('169.254.169.254')],
  'loop6.evil.test': [v6('::1')],
  'mapped.evil.test': [v6('::ffff:10.0.0.1')],
  'cgnat.evil.test': [v4('100.64.1.1')],
  'ula.evil.test': [v6('fd12:3456::1')],
  'mixed.evil.test': [v4('93.184.216.34'), v4('127.0.0.1')],
  'mixed6.evil.test': [v6('2606:4700:4700::1111'), v6('fe80::1')],
  'public.example.test': [v4('93.184.216.34'), v6('2606:2800:220:1:248:1893:25c8:1946')],
  'app.loop.test': [v4('127.0.0.1')],
};
const fakeLookup: LookupFn = async (name) => {
  const found = DNS[name];
  if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
  return found;
};

describe('isBlockedAddress', () => {
  const blocked = [
    // IPv4: loopback, unspecified, private, link-local/metadata, CGNAT, benchmarking, documentation, multicast...
    '127.0.0.1',
    '127.255.255.254',
    '0.0.0.0',
    '0.1.2.3',
    '10.0.0.1',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '169.254.0.1',
    '100.64.0.1',
    '100.127.255.255',
    '198.18.0.1',
    '198.19.255.255',
    '192.0.2.10',
    '198.51.100.7',
    '203.0.113.9',
    '192.0.0.8',
    '224.0.0.1',
    '239.255.255.250',
    '240.0.0.1',
    '255.255.255.255',
    // Odd IPv4 notations, parsed as the OS would
    '2130706433',
    '0177.0.0.1',
    '0x7f.0.0.1',
    '0x7f000001',
    '127.1',
    '10.1',
    '0300.0250.0.1',
    '017700000001',
    // IPv6
    '::1',
    '::',
    '[::1]',
    'fe80::1',
    'fe80::1%eth0',
    'fd00::1',
    'fc00::1',
    'ff02::1',
    'fec0::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '::ffff:169.254.169.254',
    '::127.0.0.1',
    '::ffff:0:7f00:1',
    '64:ff9b::a00:1',
    '64:ff9b::127.0.0.1',
    '64:ff9b:1::1',
    '2002:7f00:1::',
    '2002:a9fe:a9fe::1',
    '2001:0:4136:e378:8000:63bf:f5ff:fffe', // Teredo whose client is 10.0.0.1
    '2001:db8::1',
    '100::1',
    'fd00:ec2::254',
    // Not an address at all: fail closed
    'example.com',
    '',
    '127.0.0.1@8.8.8.8',
    '8.8.8.8/../127.0.0.1',
  ];
  it.each(blocked)('blocks %s', (ip) => {
    expect(isBlockedAddress(ip)).toBe(true);
  });

  const allowed = [
    '93.184.216.34',
    '8.8.8.8',
    '1.1.1.1',
    '172.32.0.1',
    '100.128.0.1',
    '192.169.0.1',
    '2606:4700:4700::1111',
    '2a00:1450:4001:82a::200e',
    '::ffff:93.184.216.34',
    '64:ff9b::5db8:d822', // NAT64 of 93.184.216.34
    '2002:5db8:d822::1', // 6to4 of 93.184.216.34
  ];
  it.each(allowed)('allows %s', (ip) => {
    expect(isBlockedAddress(ip)).toBe(false);
  });

  it('has at least 30 blocked cases', () => {
    expect(blocked.length).toBeGreaterThanOrEqual(30);
  });
});

describe('checkUrl', () => {
  const refused = [
    'http://127.0.0.1/',
    'http://2130706433/',
    'http://0177.0.0.1/',
    'http://0x7f.0.0.1/',
    'http://127.1/',
    'http://0x7f000001:8080/x',
    'http://[::1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:7f00:1]/',
    'http://[fe80::1]/',
    'http://[fd00::1]/',
    'http://[64:ff9b::a00:1]/',
    'http://[2002:7f00:1::]/',
    'http://169.254.169.254/latest/meta-data/',
    'http://metadata.google.internal/computeMetadata/v1/',
    'http://metadata/',
    'http://METADATA.GOOGLE.INTERNAL./',
    'http://localhost:3000/',
    'http://api.localhost/',
    'http://printer.local/',
    'https://ten.evil.test/hook',
    'https://home.evil.test/hook',
    'https://meta.evil.test/hook',
    'https://loop6.evil.test/hook',
    'https://mapped.evil.test/hook',
    'https://cgnat.evil.test/hook',
    'https://ula.evil.test/hook',
    'https://mixed.evil.test/hook',
    'https://mixed6.evil.test/hook',
    'https://ten.evil.test./hook',
  ];
  it.each(refused)('refuses %s', async (url) => {
    const err = await checkUrl(url, { lookup: fakeLookup }).catch((e) => e);
    expect(err).toBeInstanceOf(PermanentError);
    expect(err.message).toMatch(/^URL_NOT_ALLOWED: /);
    expect(err.code).toBe('URL_NOT_ALLOWED');
  });

  it('explains a name resolving to a private address', async () => {
    await expect(checkUrl('https://home.evil.test/', { lookup: fakeLookup })).rejects.toThrow(
      'URL_NOT_ALLOWED: home.evil.test resolves to 192.168.0.1: private or reserved address (192.168.0.1 is private)',
    );
  });

  it.each(['ftp://example.com/', 'file:///etc/passwd', 'gopher://example.com/', 'javascript:alert(1)', 'data:,x'])(
    'refuses the scheme of %s, even with allowPrivate',
    async (url) => {
      await expect(checkUrl(url, { allowPrivate: true, lookup: fakeLookup })).rejects.toThrow(/scheme .* not allowed/);
    },
  );

  it.each(['https://user:pass@public.example.test/', 'https://token@public.example.test/'])(
    'refuses credentials in %s',
    async (url) => {
      await expect(checkUrl(url, { lookup: fakeLookup })).rejects.toThrow(/credentials in the URL/);
    },
  );

  it('refuses what is not a URL', async () => {
    await expect(checkUrl('not a url')).rejects.toBeInstanceOf(PermanentError);
  });

  it.each([
    'https://93.184.216.34/hook',
    'http://8.8.8.8:8080/',
    'https://[2606:4700:4700::1111]/',
    'https://public.example.test/hook',
  ])('accepts the public %s (checked only, nothing sent)', async (url) => {
    const { addresses } = await checkUrl(url, { lookup: fakeLookup });
    expect(addresses.length).toBeGreaterThan(0);
  });

  it('an unknown name is a RetryableError (DNS may come back)', async () => {
    await expect(checkUrl('https://nowhere.test/', { lookup: fakeLookup })).rejects.toBeInstanceOf(RetryableError);
  });

  it('allowPrivate lets loopback and private through, but not cloud metadata', async () => {
    const opts = { allowPrivate: true, lookup: fakeLookup };
    await expect(checkUrl('http://127.0.0.1:8080/', opts)).resolves.toBeDefined();
    await expect(checkUrl('http://localhost/', { allowPrivate: true })).resolves.toBeDefined();
    await expect(checkUrl('https://home.evil.test/', opts)).resolves.toBeDefined();
    await expect(checkUrl('http://[::1]/', opts)).resolves.toBeDefined();
    await expect(checkUrl('http://169.254.169.254/', opts)).rejects.toThrow(/metadata/);
    await expect(checkUrl('https://meta.evil.test/', opts)).rejects.toThrow(/metadata/);
    await expect(checkUrl('http://metadata.google.internal/', opts)).rejects.toThrow(/metadata/);
  });

  it('allowEndpoints exempts only that port of that literal address', async () => {
    const opts = { allowEndpoints: ['127.0.0.1:41234'], lookup: fakeLookup };
    await expect(checkUrl('http://127.0.0.1:41234/x', opts)).resolves.toBeDefined();
    await expect(checkUrl('http://127.0.0.1:41235/', opts)).rejects.toBeInstanceOf(PermanentError);
    await expect(checkUrl('http://127.0.0.1/', opts)).rejects.toBeInstanceOf(PermanentError);
    await expect(checkUrl('http://127.0.0.2:41234/', opts)).rejects.toBeInstanceOf(PermanentError);
    await expect(checkUrl('http://localhost:41234/', opts)).rejects.toBeInstanceOf(PermanentError);
    await expect(checkUrl('http://[::ffff:127.0.0.1]:41234/', opts)).rejects.toBeInstanceOf(PermanentError);
    expect(() => createSafeFetch({ allowEndpoints: ['localhost:80'] })).toThrow(/address:port/);
    expect(endpointAllowed(new URL('http://127.0.0.1:41234/x'), opts.allowEndpoints)).toBe(true);
    expect(endpointAllowed(new URL('http://2130706433:41234/'), opts.allowEndpoints)).toBe(true);
    expect(endpointAllowed(new URL('http://127.0.0.1:41235/'), opts.allowEndpoints)).toBe(false);
    expect(endpointAllowed(new URL('http://localhost:41234/'), opts.allowEndpoints)).toBe(false);
  });

  it('allowAddresses exempts only the listed range', async () => {
    const opts = { allowAddresses: ['10.1.2.0/24'], lookup: fakeLookup };
    await expect(checkUrl('https://ten.evil.test/', opts)).resolves.toBeDefined();
    await expect(checkUrl('http://10.1.3.1/', opts)).rejects.toBeInstanceOf(PermanentError);
  });
});

describe('createSafeFetch', () => {
  let a: HttpEmulator;
  let b: HttpEmulator;
  beforeAll(async () => {
    [a, b] = await Promise.all([startHttpEmulator(), startHttpEmulator()]);
  });
  afterAll(async () => {
    await Promise.all([a.close(), b.close()]);
  });
  beforeEach(() => {
    a.reset();
    b.reset();
  });

  it('refuses loopback before sending anything', async () => {
    const err = await createSafeFetch()(a.hookUrl, { method: 'POST', body: '{}' }).catch((e) => e);
    expect(err).toBeInstanceOf(PermanentError);
    expect(err.message).toMatch(/^URL_NOT_ALLOWED/);
    expect(a.requests).toHaveLength(0);
  });

  it('refuses a name that resolves to loopback, at connect time, without sending', async () => {
    const err = await createSafeFetch({ lookup: fakeLookup })(`http://app.loop.test:${a.port}/hook`).catch((e) => e);
    expect(err).toBeInstanceOf(PermanentError);
    expect(err.message).toContain('app.loop.test resolves to 127.0.0.1');
    expect(a.requests).toHaveLength(0);
  });

  it('allowPrivate lets loopback through', async () => {
    const res = await createSafeFetch({ allowPrivate: true })(a.hookUrl, { method: 'POST', body: '{"x":1}' });
    expect(res.status).toBe(200);
    expect(a.records).toHaveLength(1);
  });

  it('connects to the address its resolver checked (pinned), keeping the Host name', async () => {
    const seen: string[] = [];
    const lookup: LookupFn = async (name) => {
      seen.push(name);
      return fakeLookup(name);
    };
    const res = await createSafeFetch({ allowAddresses: ['127.0.0.1'], lookup })(`http://app.loop.test:${a.port}/x`, {
      method: 'POST',
      body: '{}',
    });
    expect(res.status).toBe(200);
    expect(seen).toEqual(['app.loop.test']);
    expect(a.requests[0]!.headers.host).toBe(`app.loop.test:${a.port}`);
  });

  it('refuses a redirect chain that ends in a private address, re-checking every hop', async () => {
    const safe = createSafeFetch({ allowAddresses: ['127.0.0.1'], lookup: fakeLookup });
    a.setRedirect({ location: `${b.url}/second`, status: 302 });
    b.setRedirect({ location: 'https://home.evil.test/third', status: 307 });
    const err = await safe(a.hookUrl, { method: 'POST', body: '{}' }).catch((e) => e);
    expect(err).toBeInstanceOf(PermanentError);
    expect(err.message).toBe(
      'URL_NOT_ALLOWED: redirect to https://home.evil.test refused: home.evil.test resolves to 192.168.0.1: private or reserved address (192.168.0.1 is private)',
    );
    expect(a.requests).toHaveLength(1);
    expect(b.requests).toHaveLength(1);
    // 302 after POST continues as GET without a body (fetch semantics).
    expect(b.requests[0]!.method).toBe('GET');
  });

  it('refuses a redirect to another scheme even with allowPrivate', async () => {
    a.setRedirect({ location: 'file:///etc/passwd' });
    await expect(createSafeFetch({ allowPrivate: true })(a.hookUrl)).rejects.toThrow(/scheme file: is not allowed/);
  });

  it('follows at most maxRedirects hops', async () => {
    a.setRedirect({ location: `${a.url}/loop`, status: 307 });
    const safe = createSafeFetch({ allowPrivate: true, maxRedirects: 2 });
    const err = await safe(a.hookUrl, { method: 'POST', body: '{}' }).catch((e) => e);
    expect(err).toBeInstanceOf(PermanentError);
    expect(err.code).toBe('TOO_MANY_REDIRECTS');
    expect(a.requests).toHaveLength(3);
  });

  it('drops Authorization on a cross-origin redirect', async () => {
    a.setRedirect({ location: `${b.url}/next`, status: 307, times: 1 });
    const res = await createSafeFetch({ allowPrivate: true })(a.hookUrl, {
      method: 'POST',
      headers: { authorization: 'Bearer t0k3n', 'x-keep': '1' },
      body: '{}',
    });
    expect(res.status).toBe(200);
    expect(a.requests[0]!.headers.authorization).toBe('Bearer t0k3n');
    expect(b.requests[0]!.headers.authorization).toBeUndefined();
    expect(b.requests[0]!.headers['x-keep']).toBe('1');
    expect(b.requests[0]!.method).toBe('POST');
  });

  it('times out as a RetryableError', async () => {
    a.setLatency(2000);
    const started = performance.now();
    const err = await createSafeFetch({ allowPrivate: true, timeoutMs: 200 })(a.hookUrl).catch((e) => e);
    expect(err).toBeInstanceOf(RetryableError);
    expect(err.code).toBe('TIMEOUT');
    expect(performance.now() - started).toBeLessThan(1500);
  });

  it("honours the caller's abort signal", async () => {
    a.setLatency(2000);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const err = await createSafeFetch({ allowPrivate: true })(a.hookUrl, { signal: controller.signal }).catch((e) => e);
    expect(err).toBeInstanceOf(RetryableError);
    expect(err.code).toBe('ABORTED');
  });

  it('a refused connection is a RetryableError', async () => {
    const gone = await startHttpEmulator();
    await gone.close();
    const err = await createSafeFetch({ allowPrivate: true })(gone.hookUrl).catch((e) => e);
    expect(err).toBeInstanceOf(RetryableError);
    expect(err.code).toBe('NETWORK');
    expect(err.message).toMatch(/ECONNREFUSED/);
  });
});
