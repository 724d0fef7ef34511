// LiqPay's envelope (docs/payments-liqpay.md): every request, checkout form and callback carries
// `data` = base64(JSON) and `signature` = base64(sha1(private_key + data + private_key)).
import { createHash } from 'node:crypto';
import { sameText } from '../../../../lib/same-text';
import { storableText } from '../../../../lib/storable-text';

/** base64(sha1(privateKey + data + privateKey)), as LiqPay's SDKs compute it. */
export function liqpaySignature(privateKey: string, data: string): string {
  return createHash('sha1')
    .update(privateKey + data + privateKey, 'utf8')
    .digest('base64');
}

// Some integrators read LiqPay's newer pages as signing callbacks with SHA3-256 in the same
// construction; LiqPay's own pages and SDKs we could read say SHA-1. Both need the private key, so a
// callback signed either way is accepted; we sign with SHA-1 only.
function sha3Signature(privateKey: string, data: string): string {
  return createHash('sha3-256')
    .update(privateKey + data + privateKey, 'utf8')
    .digest('base64');
}

/** True when `signature` is the private key's signature of `data` (constant-time comparison). */
export function verifySignature(privateKey: string, data: string, signature: string): boolean {
  // Evaluated both ways, whichever matches, so the time taken tells nothing about which.
  const sha1 = sameText(liqpaySignature(privateKey, data), signature);
  const sha3 = sameText(sha3Signature(privateKey, data), signature);
  return sha1 || sha3;
}

/** base64 of the JSON text (UTF-8), the `data` field. */
export function encodeData(params: Record<string, unknown>): string {
  return Buffer.from(JSON.stringify(params), 'utf8').toString('base64');
}

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * The object a `data` field carries, or null when it is not base64 of a JSON object. Never throws.
 * Its text is what PostgreSQL can store (lib/storable-text.ts): the callback's fields are kept as the
 * payment's event, and base64 hides them from the input boundary.
 */
export function decodeData(data: unknown): Record<string, unknown> | null {
  if (typeof data !== 'string') return null;
  // LiqPay's shell examples wrap base64 at 76 columns; the line breaks carry nothing.
  const compact = data.replace(/\s+/g, '');
  if (compact.length === 0 || compact.length % 4 !== 0 || !BASE64.test(compact)) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(compact, 'base64').toString('utf8'));
  } catch {
    return null;
  }
  return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
    ? storableText(parsed as Record<string, unknown>)
    : null;
}
