// Encryption at rest for small JSON secrets (integration credentials): AES-256-GCM with a random
// 96-bit IV per write. The envelope names its key (kid) so a rotated key still opens old rows, and
// the caller binds each envelope to its row (aad) so a ciphertext copied to another row does not open.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

import type { SealedSecret } from '../db/schema/sealed-secret';

export type { SealedSecret };

export class SecretUnreadableError extends Error {
  constructor(reason: string) {
    super(`Stored secret cannot be decrypted: ${reason}`);
    this.name = 'SecretUnreadableError';
  }
}

export interface SecretBox {
  /** The kid of the key new envelopes are sealed with. */
  readonly kid: string;
  seal(value: Record<string, unknown>, aad: string): SealedSecret;
  /** Opens an envelope; a plain object stored before encryption existed is returned as it is. */
  open(stored: unknown, aad: string): Record<string, unknown>;
  /** Plaintext, or sealed with a key other than the current one: worth writing again. */
  needsReseal(stored: unknown): boolean;
}

const ALGORITHM = 'aes-256-gcm';
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const HEX_KEY = /^[0-9a-fA-F]{64}$/;
// base64 or base64url of 32 bytes: 43 characters and an optional "=".
const BASE64_KEY = /^[A-Za-z0-9+/_-]{43}=?$/;

export const ENCRYPTION_KEY_FORMAT =
  'must be 32 bytes written as base64 (44 characters, e.g. `openssl rand -base64 32`) or as 64 hex characters';

/** The key bytes of ENCRYPTION_KEY, or undefined when the text is not 32 bytes in base64 or hex. */
export function parseEncryptionKey(text: string): Buffer | undefined {
  const value = text.trim();
  if (HEX_KEY.test(value)) return Buffer.from(value, 'hex');
  if (!BASE64_KEY.test(value)) return undefined;
  const bytes = Buffer.from(value, 'base64');
  return bytes.length === KEY_BYTES ? bytes : undefined;
}

export const keyId = (key: Buffer) =>
  createHash('sha256').update('leadrelay-kid:').update(key).digest('hex').slice(0, 12);

export function isSealed(stored: unknown): stored is SealedSecret {
  if (typeof stored !== 'object' || stored === null) return false;
  const s = stored as Record<string, unknown>;
  return (
    s.v === 1 &&
    typeof s.kid === 'string' &&
    typeof s.iv === 'string' &&
    typeof s.tag === 'string' &&
    typeof s.data === 'string'
  );
}

/** `key` seals and opens; `previousKeys` only open (what ENCRYPTION_KEY_PREVIOUS is for). */
export function createSecretBox(key: Buffer, previousKeys: Buffer[] = []): SecretBox {
  for (const k of [key, ...previousKeys]) {
    if (k.length !== KEY_BYTES) throw new Error(`An encryption key ${ENCRYPTION_KEY_FORMAT}`);
  }
  const keys = [key, ...previousKeys].map((k) => ({ kid: keyId(k), key: k }));
  const current = keys[0]!;

  function decrypt(k: Buffer, sealed: SealedSecret, aad: string): Record<string, unknown> | undefined {
    try {
      const iv = Buffer.from(sealed.iv, 'base64');
      const tag = Buffer.from(sealed.tag, 'base64');
      if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) return undefined;
      const decipher = createDecipheriv(ALGORITHM, k, iv, { authTagLength: TAG_BYTES });
      decipher.setAAD(Buffer.from(aad, 'utf8'));
      decipher.setAuthTag(tag);
      const plain = Buffer.concat([decipher.update(Buffer.from(sealed.data, 'base64')), decipher.final()]);
      const value: unknown = JSON.parse(plain.toString('utf8'));
      return typeof value === 'object' && value !== null && !Array.isArray(value)
        ? (value as Record<string, unknown>)
        : undefined;
    } catch {
      // A wrong key, a wrong row or altered bytes all fail the tag check the same way.
      return undefined;
    }
  }

  return {
    kid: current.kid,
    seal(value, aad) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv(ALGORITHM, current.key, iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(Buffer.from(aad, 'utf8'));
      const data = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
      return {
        v: 1,
        kid: current.kid,
        iv: iv.toString('base64'),
        tag: cipher.getAuthTag().toString('base64'),
        data: data.toString('base64'),
      };
    },
    open(stored, aad) {
      if (!isSealed(stored)) {
        if (typeof stored === 'object' && stored !== null && !Array.isArray(stored)) {
          return stored as Record<string, unknown>;
        }
        throw new SecretUnreadableError('not an object');
      }
      // The named key first; the others too, in case a kid was computed differently or altered.
      const ordered = [...keys.filter((k) => k.kid === stored.kid), ...keys.filter((k) => k.kid !== stored.kid)];
      for (const { key: k } of ordered) {
        const value = decrypt(k, stored, aad);
        if (value) return value;
      }
      const known = keys.some((k) => k.kid === stored.kid);
      throw new SecretUnreadableError(
        known ? 'the data was altered or belongs to another row' : `sealed with an unknown key (kid ${stored.kid})`,
      );
    },
    needsReseal(stored) {
      if (!isSealed(stored)) return typeof stored === 'object' && stored !== null && Object.keys(stored).length > 0;
      return stored.kid !== current.kid;
    },
  };
}
