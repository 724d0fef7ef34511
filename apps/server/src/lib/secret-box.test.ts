// Integration credentials at rest: the envelope, key rotation, the key setting and its file.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { loadEnv } from '../app-modules';
import { openDatabase } from '../db/client';
import { createTestDatabase } from '../test/test-app';
import { loadOrCreateEncryptionKey } from './encryption-key';
import { createSecretBox, isSealed, keyId, parseEncryptionKey, SecretUnreadableError } from './secret-box';

const ROW = '0b7c2a52-5f0e-4a3e-9d53-0c3c6f6f2d11';
const OTHER_ROW = '6d1f7a44-93f4-4f43-8a9a-3b6f3e5c8e20';
// Each value holds a character no base64 has, so the sealed envelope cannot hold it by chance.
const auth = { token: 'sk_live_verysecret', account: 'acme.example' };

describe('secret box', () => {
  const key = randomBytes(32);
  const box = createSecretBox(key);

  it('seals into an envelope that holds no plaintext, and opens it back', () => {
    const sealed = box.seal(auth, ROW);
    expect(sealed).toMatchObject({ v: 1, kid: keyId(key) });
    expect(Object.keys(sealed).sort()).toEqual(['data', 'iv', 'kid', 'tag', 'v']);
    expect(JSON.stringify(sealed)).not.toContain('verysecret');
    expect(JSON.stringify(sealed)).not.toContain('acme.example');
    expect(box.open(sealed, ROW)).toEqual(auth);
    // A fresh IV each time: equal credentials do not give equal rows.
    expect(box.seal(auth, ROW).data).not.toBe(sealed.data);
  });

  it('refuses altered ciphertext, tag or IV, another row’s envelope and a foreign key', () => {
    const sealed = box.seal(auth, ROW);
    const flip = (b64: string) => {
      const bytes = Buffer.from(b64, 'base64');
      bytes[0] = (bytes[0] ?? 0) ^ 1;
      return bytes.toString('base64');
    };
    for (const altered of [
      { ...sealed, data: flip(sealed.data) },
      { ...sealed, tag: flip(sealed.tag) },
      { ...sealed, iv: flip(sealed.iv) },
      { ...sealed, iv: 'AAAA' },
    ]) {
      expect(() => box.open(altered, ROW)).toThrow(SecretUnreadableError);
    }
    expect(() => box.open(sealed, OTHER_ROW)).toThrow(/altered or belongs to another row/);
    const foreign = createSecretBox(randomBytes(32)).seal(auth, ROW);
    expect(() => box.open(foreign, ROW)).toThrow(/unknown key/);
    expect(() => box.open('plain text', ROW)).toThrow(SecretUnreadableError);
  });

  it('opens what the previous key sealed after a rotation, and says it needs sealing again', () => {
    const oldKey = randomBytes(32);
    const sealedBefore = createSecretBox(oldKey).seal(auth, ROW);
    const rotated = createSecretBox(randomBytes(32), [oldKey]);
    expect(rotated.open(sealedBefore, ROW)).toEqual(auth);
    expect(rotated.needsReseal(sealedBefore)).toBe(true);
    const sealedAfter = rotated.seal(auth, ROW);
    expect(rotated.needsReseal(sealedAfter)).toBe(false);
    // Without the previous key the old rows are unreadable, not silently empty.
    expect(() => createSecretBox(randomBytes(32)).open(sealedBefore, ROW)).toThrow(SecretUnreadableError);
  });

  it('reads rows stored before encryption as they are, and marks them for sealing', () => {
    expect(box.open({ secret: 'legacy' }, ROW)).toEqual({ secret: 'legacy' });
    expect(box.needsReseal({ secret: 'legacy' })).toBe(true);
    expect(box.needsReseal({})).toBe(false);
    expect(isSealed({ secret: 'legacy' })).toBe(false);
  });
});

describe('ENCRYPTION_KEY', () => {
  const bytes = randomBytes(32);

  it('accepts 32 bytes as base64, base64url or hex, nothing else', () => {
    expect(parseEncryptionKey(bytes.toString('base64'))?.equals(bytes)).toBe(true);
    expect(parseEncryptionKey(bytes.toString('base64url'))?.equals(bytes)).toBe(true);
    expect(parseEncryptionKey(`${bytes.toString('hex')}\n`)?.equals(bytes)).toBe(true);
    expect(parseEncryptionKey(randomBytes(16).toString('base64'))).toBeUndefined();
    expect(parseEncryptionKey(randomBytes(31).toString('hex'))).toBeUndefined();
    expect(parseEncryptionKey('correct horse battery staple correct horse b')).toBeUndefined();
  });

  it('is validated with the environment, with a message that does not repeat the value', () => {
    expect(loadEnv({ ENCRYPTION_KEY: bytes.toString('base64') }).encryptionKey).toBe(bytes.toString('base64'));
    expect(loadEnv({}).encryptionKey).toBeUndefined();
    expect(loadEnv({ ENCRYPTION_KEY: '  ' }).encryptionKey).toBeUndefined();
    const bad = 'not-a-key-but-a-password';
    expect(() => loadEnv({ ENCRYPTION_KEY: bad })).toThrow(/ENCRYPTION_KEY: must be 32 bytes/);
    expect(() => loadEnv({ ENCRYPTION_KEY: bad })).not.toThrow(new RegExp(bad));
    expect(() => loadEnv({ ENCRYPTION_KEY_PREVIOUS: randomBytes(16).toString('hex') })).toThrow(
      /ENCRYPTION_KEY_PREVIOUS: must be 32 bytes/,
    );
  });

  it('is refused by buildApp when malformed, before anything starts', async () => {
    await expect(buildApp({ encryptionKey: 'short' })).rejects.toThrow(/encryptionKey must be 32 bytes/);
  });
});

describe('the generated key file', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'lr-key-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is made once with mode 0600 and read back on the next start', () => {
    const first = loadOrCreateEncryptionKey(dir);
    const file = join(dir, 'encryption-key');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(loadOrCreateEncryptionKey(dir).equals(first)).toBe(true);
    expect(parseEncryptionKey(readFileSync(file, 'utf8'))?.equals(first)).toBe(true);
  });

  it('is never replaced when damaged: that would lock every connection out', () => {
    const file = join(dir, 'encryption-key');
    writeFileSync(file, 'garbage\n');
    expect(() => loadOrCreateEncryptionKey(dir)).toThrow(/restore it from a backup or set ENCRYPTION_KEY/);
    expect(readFileSync(file, 'utf8')).toBe('garbage\n');
  });

  it('is what an app on that data folder seals with, unless ENCRYPTION_KEY is given', async () => {
    // The key comes from the folder whatever the database is: a test database keeps this quick.
    const test = await createTestDatabase('lr_test', { migrated: true });
    const database = await openDatabase({ databaseUrl: test.url });
    try {
      const app = await buildApp({ dataDir: dir, database });
      const key = parseEncryptionKey(readFileSync(join(dir, 'encryption-key'), 'utf8'))!;
      expect(app.deps.secrets.kid).toBe(keyId(key));
      await app.close();
      const given = randomBytes(32);
      const second = await buildApp({ dataDir: dir, database, encryptionKey: given.toString('hex') });
      expect(second.deps.secrets.kid).toBe(keyId(given));
      await second.close();
    } finally {
      await database.close();
      await test.drop();
    }
  });
});
