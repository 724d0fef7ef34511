// SSRF-safe fetch for user-supplied URLs (webhook destinations, anything a user types).
// Every hop is checked: scheme, credentials, host name, and every address the name resolves to.
// The address that was checked is the address we connect to: the undici Agent's connect.lookup
// runs the same resolver and refuses there, so DNS rebinding cannot swap it in between.
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { Agent, fetch as undiciFetch } from 'undici';
import { PermanentError, RetryableError } from './errors';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to all its addresses; injectable so tests never touch real DNS. */
export type LookupFn = (hostname: string) => Promise<ResolvedAddress[]>;

export interface SafeFetchOptions {
  /** Lift the address rules (self-hosted installs, tests on loopback). The scheme rule and cloud metadata stay blocked. */
  allowPrivate?: boolean;
  /** Addresses or CIDR ranges exempt from the address rules, e.g. ['10.1.2.0/24'] for one internal CRM. */
  allowAddresses?: string[];
  /**
   * Exact `address:port` endpoints exempt from the address rules, e.g. the demo emulators'
   * `127.0.0.1:41234`: only that port of that literal address (written as such in the URL), never
   * the range around it, nor a name that resolves to it.
   */
  allowEndpoints?: string[];
  /** Whole request including redirects and the response body; default 10 000. */
  timeoutMs?: number;
  /** Default 3; each hop is checked again. */
  maxRedirects?: number;
  lookup?: LookupFn;
}

export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_MAX_REDIRECTS = 3;

// Cloud metadata endpoints: blocked even with allowPrivate (a self-hosted box on a cloud VM still has them).
const METADATA_HOSTS = new Set(['metadata', 'metadata.google.internal', 'metadata.goog', 'instance-data']);
const METADATA_ADDRESSES = new Set(['169.254.169.254', '169.254.170.2', '100.100.100.200', 'fd00:ec2::254']);
// Names that only ever mean "this machine" or "this private network".
const LOCAL_SUFFIXES = ['.localhost', '.internal', '.local', '.localdomain', '.home.arpa', '.intranet', '.lan'];

/** Blocked URL or address: the message starts with URL_NOT_ALLOWED so the UI can show it as a setting error. */
class BlockedError extends Error {
  constructor(readonly reason: string) {
    super(`URL_NOT_ALLOWED: ${reason}`);
    this.name = 'BlockedError';
  }
}

const defaultLookup: LookupFn = async (hostname) => {
  const found = await dnsLookup(hostname, { all: true, order: 'verbatim' });
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

/**
 * Normalises an address the way the OS and the WHATWG URL parser would: decimal (2130706433),
 * octal (0177.0.0.1), hex (0x7f.0.0.1) and short (127.1) IPv4 forms, bracketed IPv6.
 * Returns null when the string is not an IP address at all.
 */
export function parseAddress(input: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  let s = input.trim();
  if (s.startsWith('[') && s.endsWith(']')) s = s.slice(1, -1);
  if (s.includes(':')) {
    // Zone ids (fe80::1%eth0) only ever point at local links.
    const bare = s.split('%')[0] ?? '';
    return ipaddr.IPv6.isValid(bare) ? ipaddr.IPv6.parse(bare) : null;
  }
  // Only digits, hex and dots can be an IPv4 form; anything else ('a@b', 'x/y') would let URL pick a different host.
  if (!/^[0-9a-fA-FxX.]+$/.test(s)) return null;
  let host: string;
  try {
    host = new URL(`http://${s}/`).hostname;
  } catch {
    return null;
  }
  return ipaddr.IPv4.isValidFourPartDecimal(host) ? ipaddr.IPv4.parse(host) : null;
}

function ipv4FromBits(hi: number, lo: number): ipaddr.IPv4 {
  return new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
}

/** Why an address is refused, or null when it is a public unicast address. */
export function blockedReason(address: ipaddr.IPv4 | ipaddr.IPv6): string | null {
  if (address.kind() === 'ipv4') {
    const range = address.range();
    // 'unicast' is ipaddr.js's name for "none of the special ranges" (loopback, private, CGNAT, link-local,
    // multicast, broadcast, 0/8, 240/4, benchmarking 198.18/15, documentation, 192.0.0/24, as112, amt).
    return range === 'unicast' ? null : `${address.toString()} is ${range}`;
  }
  const v6 = address as ipaddr.IPv6;
  const p = v6.parts;
  // Forms that embed an IPv4 address: judge the IPv4 inside.
  if (v6.isIPv4MappedAddress()) return embedded(v6, v6.toIPv4Address(), 'IPv4-mapped');
  if (p[0] === 0 && p[1] === 0 && p[2] === 0 && p[3] === 0 && p[4] === 0 && p[5] === 0) {
    // ::/96: unspecified, loopback, or deprecated IPv4-compatible ::a.b.c.d
    if (p[6] === 0 && (p[7] ?? 0) <= 1) return `${v6.toString()} is ${v6.range()}`;
    return embedded(v6, ipv4FromBits(p[6] ?? 0, p[7] ?? 0), 'IPv4-compatible');
  }
  if (p[0] === 0 && p[1] === 0 && p[2] === 0 && p[3] === 0 && p[4] === 0xffff && p[5] === 0) {
    return embedded(v6, ipv4FromBits(p[6] ?? 0, p[7] ?? 0), 'IPv4-translated');
  }
  if (p[0] === 0x64 && p[1] === 0xff9b) {
    // 64:ff9b::/96 is the well-known NAT64 prefix (public IPv4 behind DNS64); 64:ff9b:1::/48 is local-use only.
    if (p[2] === 0 && p[3] === 0 && p[4] === 0 && p[5] === 0) {
      return embedded(v6, ipv4FromBits(p[6] ?? 0, p[7] ?? 0), 'NAT64');
    }
    return `${v6.toString()} is local-use NAT64`;
  }
  if (p[0] === 0x2002) return embedded(v6, ipv4FromBits(p[1] ?? 0, p[2] ?? 0), '6to4');
  if (p[0] === 0x2001 && p[1] === 0) {
    // Teredo: the client's IPv4 is the last 32 bits, inverted; the server's sits in bits 32..63.
    const server = embeddedReason(ipv4FromBits(p[2] ?? 0, p[3] ?? 0));
    const client = embeddedReason(ipv4FromBits(~(p[6] ?? 0) & 0xffff, ~(p[7] ?? 0) & 0xffff));
    const reason = client ?? server;
    return reason ? `${v6.toString()} is Teredo around ${reason}` : null;
  }
  // Everything outside global unicast 2000::/3 is special or unassigned (::/8, 100::/64, fc00::/7, fe80::/10, ff00::/8...).
  if (((p[0] ?? 0) & 0xe000) !== 0x2000) return `${v6.toString()} is ${describeV6(v6)}`;
  const range = v6.range();
  return range === 'unicast' ? null : `${v6.toString()} is ${range}`;
}

function describeV6(v6: ipaddr.IPv6): string {
  const range = v6.range();
  return range === 'unicast' ? 'outside global unicast' : range;
}

function embeddedReason(v4: ipaddr.IPv4): string | null {
  return blockedReason(v4);
}

function embedded(v6: ipaddr.IPv6, v4: ipaddr.IPv4, form: string): string | null {
  const reason = embeddedReason(v4);
  return reason ? `${v6.toString()} (${form}) embeds ${reason}` : null;
}

/** True when the address must not be reached: unparsable strings count as blocked. */
export function isBlockedAddress(ip: string): boolean {
  const parsed = parseAddress(ip);
  return parsed === null || blockedReason(parsed) !== null || isMetadataAddress(parsed);
}

function isMetadataAddress(address: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  let a = address;
  if (a.kind() === 'ipv6' && (a as ipaddr.IPv6).isIPv4MappedAddress()) a = (a as ipaddr.IPv6).toIPv4Address();
  return METADATA_ADDRESSES.has(a.toNormalizedString()) || METADATA_ADDRESSES.has(a.toString());
}

interface Policy {
  allowPrivate: boolean;
  allowed: [ipaddr.IPv4 | ipaddr.IPv6, number][];
  /** Normalised `address:port` keys (see endpointKey). */
  endpoints: Set<string>;
  lookup: LookupFn;
}

function policyOf(options: SafeFetchOptions): Policy {
  const allowed = (options.allowAddresses ?? []).map((a) => {
    if (a.includes('/')) return ipaddr.parseCIDR(a);
    const ip = parseAddress(a);
    if (!ip) throw new Error(`allowAddresses: not an address: ${a}`);
    return [ip, ip.kind() === 'ipv4' ? 32 : 128] as [ipaddr.IPv4 | ipaddr.IPv6, number];
  });
  const endpoints = new Set(
    (options.allowEndpoints ?? []).map((e) => {
      const url = new URL(`http://${e}/`);
      const host = url.hostname.replace(/^\[|\]$/g, '');
      const ip = parseAddress(host);
      if (!ip || !url.port) throw new Error(`allowEndpoints: not an address:port: ${e}`);
      return endpointKey(ip, Number(url.port));
    }),
  );
  return { allowPrivate: options.allowPrivate ?? false, allowed, endpoints, lookup: options.lookup ?? defaultLookup };
}

function endpointKey(ip: ipaddr.IPv4 | ipaddr.IPv6, port: number): string {
  return `${ip.kind() === 'ipv6' ? `[${ip.toNormalizedString()}]` : ip.toString()}:${port}`;
}

/** The port a URL connects to. */
const portOf = (url: URL) => Number(url.port || (url.protocol === 'https:' ? 443 : 80));

/** Whether the URL's host is a literal address whose port is one of `allowEndpoints` (see SafeFetchOptions). */
export function endpointAllowed(url: URL, allowEndpoints: string[]): boolean {
  if (allowEndpoints.length === 0) return false;
  const ip = parseAddress(url.hostname);
  return !!ip && policyOf({ allowEndpoints }).endpoints.has(endpointKey(ip, portOf(url)));
}

/** Throws BlockedError when the policy refuses this address. */
function assertAddress(ip: string, policy: Policy, hostname: string): void {
  const parsed = parseAddress(ip);
  const label = ip === hostname ? ip : `${hostname} resolves to ${ip}`;
  if (!parsed) throw new BlockedError(`${label}: not an IP address`);
  if (isMetadataAddress(parsed)) throw new BlockedError(`${label}: cloud metadata address`);
  if (policy.allowPrivate) return;
  if (policy.allowed.some(([net, bits]) => net.kind() === parsed.kind() && parsed.match(net, bits))) return;
  const reason = blockedReason(parsed);
  if (reason) throw new BlockedError(`${label}: private or reserved address (${reason})`);
}

/** Synchronous rules for one URL: scheme, credentials, host name, literal addresses. */
function assertUrlShape(url: URL, policy: Policy): { hostname: string; literal: boolean } {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new BlockedError(`scheme ${url.protocol} is not allowed (http and https only)`);
  }
  if (url.username || url.password) throw new BlockedError('credentials in the URL are not allowed');
  // URL already turned decimal/octal/hex/short IPv4 into dotted quads and lower-cased the name.
  let hostname = url.hostname;
  if (hostname.startsWith('[')) hostname = hostname.slice(1, -1);
  hostname = hostname.replace(/\.+$/, '');
  if (!hostname) throw new BlockedError('empty host');
  if (METADATA_HOSTS.has(hostname)) throw new BlockedError(`${hostname} is a cloud metadata host`);
  if (isIP(hostname)) {
    const ip = parseAddress(hostname);
    if (ip && !isMetadataAddress(ip) && policy.endpoints.has(endpointKey(ip, portOf(url)))) {
      return { hostname, literal: true };
    }
    assertAddress(hostname, policy, hostname);
    return { hostname, literal: true };
  }
  if (!policy.allowPrivate && (hostname === 'localhost' || LOCAL_SUFFIXES.some((s) => hostname.endsWith(s)))) {
    throw new BlockedError(`${hostname} is a local name`);
  }
  return { hostname, literal: false };
}

async function resolveChecked(hostname: string, policy: Policy): Promise<ResolvedAddress[]> {
  const addresses = await policy.lookup(hostname);
  if (addresses.length === 0) throw new Error(`ENOTFOUND: ${hostname} has no addresses`);
  // Refuse when ANY address is blocked: a name with one public and one private address is not safe.
  for (const a of addresses) assertAddress(a.address, policy, hostname);
  return addresses;
}

function toPermanent(err: BlockedError, redirectTo?: URL): PermanentError {
  const reason = redirectTo ? `redirect to ${redirectTo.origin} refused: ${err.reason}` : err.reason;
  return new PermanentError(`URL_NOT_ALLOWED: ${reason}`, { code: 'URL_NOT_ALLOWED' });
}

/**
 * Checks a URL without sending anything: the shape rules, then every address its host resolves to.
 * Throws PermanentError (URL_NOT_ALLOWED) when refused, RetryableError when DNS fails.
 * The integrations API can call it when a user saves a URL.
 */
export async function checkUrl(
  input: string | URL,
  options: SafeFetchOptions = {},
): Promise<{ url: URL; addresses: ResolvedAddress[] }> {
  const policy = policyOf(options);
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new PermanentError(`URL_NOT_ALLOWED: not a valid URL`, { code: 'URL_NOT_ALLOWED' });
  }
  try {
    const { hostname, literal } = assertUrlShape(url, policy);
    if (literal) return { url, addresses: [{ address: hostname, family: isIP(hostname) === 6 ? 6 : 4 }] };
    return { url, addresses: await resolveChecked(hostname, policy) };
  } catch (err) {
    if (err instanceof BlockedError) throw toPermanent(err);
    throw new RetryableError(`NETWORK: cannot resolve ${url.hostname}: ${(err as Error).message}`, {
      code: 'NETWORK',
      cause: err,
    });
  }
}

/** net.connect's lookup, backed by the checked resolver: the socket connects only to addresses we accepted. */
function pinnedLookup(policy: Policy): LookupFunction {
  return (hostname, opts, callback) => {
    resolveChecked(hostname.replace(/\.+$/, '').toLowerCase(), policy).then(
      (addresses) => {
        const family = typeof opts === 'object' ? opts.family : undefined;
        const wanted = family === 4 || family === 6 ? addresses.filter((a) => a.family === family) : addresses;
        if (wanted.length === 0) {
          callback(Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), '', 4);
        } else if (typeof opts === 'object' && opts.all) {
          // biome-ignore lint/suspicious/noExplicitAny: the "all" overload of the callback takes an array
          (callback as any)(null, wanted);
        } else {
          const first = wanted[0]!;
          callback(null, first.address, first.family);
        }
      },
      (err: Error) => callback(err as NodeJS.ErrnoException, '', 4),
    );
  };
}

function findCause<T>(err: unknown, type: new (...args: never[]) => T): T | undefined {
  let e: unknown = err;
  for (let i = 0; i < 8 && e; i++) {
    if (e instanceof type) return e;
    if (e instanceof AggregateError) {
      for (const inner of e.errors) {
        const found = findCause(inner, type);
        if (found) return found;
      }
    }
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

function networkMessage(err: unknown): string {
  let e: unknown = err;
  let last = String(err);
  for (let i = 0; i < 8 && e; i++) {
    const { code, message } = e as { code?: string; message?: string };
    if (message) last = code && !message.includes(code) ? `${code} ${message}` : message;
    e = (e as { cause?: unknown }).cause;
  }
  return last;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const CROSS_ORIGIN_DROPPED = ['authorization', 'proxy-authorization', 'cookie'];

/**
 * A fetch that only reaches public addresses (unless allowPrivate), follows at most maxRedirects
 * redirects by hand with every hop checked, and times out. Errors come out classified:
 * PermanentError URL_NOT_ALLOWED / TOO_MANY_REDIRECTS, RetryableError TIMEOUT / ABORTED / NETWORK.
 * Create one per process (it owns a connection pool) and pass it as ctx.fetch.
 */
export function createSafeFetch(options: SafeFetchOptions = {}): typeof fetch {
  const policy = policyOf(options);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  const agent = new Agent({ connect: { lookup: pinnedLookup(policy), timeout: timeoutMs } });

  const safeFetch = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    let url: URL;
    let method: string;
    let headers: Headers;
    let body: RequestInit['body'];
    if (input instanceof Request) {
      url = new URL(input.url);
      method = init.method ?? input.method;
      headers = new Headers(init.headers ?? input.headers);
      body = init.body !== undefined ? init.body : input.body ? await input.arrayBuffer() : undefined;
    } else {
      try {
        url = new URL(input);
      } catch {
        throw new PermanentError('URL_NOT_ALLOWED: not a valid URL', { code: 'URL_NOT_ALLOWED' });
      }
      method = (init.method ?? 'GET').toUpperCase();
      headers = new Headers(init.headers);
      body = init.body;
    }
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = init.signal ? AbortSignal.any([init.signal, timeout]) : timeout;

    for (let hop = 0; ; hop++) {
      try {
        assertUrlShape(url, policy);
      } catch (err) {
        if (err instanceof BlockedError) {
          throw toPermanent(err, hop === 0 ? undefined : url);
        }
        throw err;
      }
      let res: Response;
      try {
        res = (await undiciFetch(url, {
          method,
          headers: Object.fromEntries(headers.entries()),
          body: body as never,
          redirect: 'manual',
          signal,
          dispatcher: agent,
          ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
        })) as unknown as Response;
      } catch (err) {
        const blocked = findCause(err, BlockedError);
        if (blocked) {
          throw toPermanent(blocked, hop === 0 ? undefined : url);
        }
        if (timeout.aborted) {
          throw new RetryableError(`TIMEOUT: no answer from ${url.host} within ${timeoutMs} ms`, { code: 'TIMEOUT' });
        }
        if (init.signal?.aborted) throw new RetryableError('ABORTED: the request was cancelled', { code: 'ABORTED' });
        throw new RetryableError(`NETWORK: ${url.host}: ${networkMessage(err)}`, { code: 'NETWORK', cause: err });
      }
      const location = res.headers.get('location');
      if (!REDIRECTS.has(res.status) || !location) return res;
      await res.body?.cancel().catch(() => {});
      if (hop >= maxRedirects) {
        throw new PermanentError(`TOO_MANY_REDIRECTS: more than ${maxRedirects} redirects from ${url.origin}`, {
          code: 'TOO_MANY_REDIRECTS',
          httpStatus: res.status,
        });
      }
      let next: URL;
      try {
        next = new URL(location, url);
      } catch {
        throw new PermanentError(`URL_NOT_ALLOWED: redirect to an invalid URL`, { code: 'URL_NOT_ALLOWED' });
      }
      // Fetch-spec method rules: 303 (and 301/302 after POST) become GET without a body.
      if (res.status === 303 ? method !== 'HEAD' : (res.status === 301 || res.status === 302) && method === 'POST') {
        method = 'GET';
        body = undefined;
        headers.delete('content-type');
        headers.delete('content-length');
      } else if (body instanceof ReadableStream) {
        throw new PermanentError('TOO_MANY_REDIRECTS: cannot replay a streamed body on a redirect', {
          code: 'TOO_MANY_REDIRECTS',
          httpStatus: res.status,
        });
      }
      if (next.origin !== url.origin) for (const h of CROSS_ORIGIN_DROPPED) headers.delete(h);
      url = next;
    }
  };
  return safeFetch as typeof fetch;
}
