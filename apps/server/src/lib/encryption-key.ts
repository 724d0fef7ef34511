import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ENCRYPTION_KEY_FORMAT, parseEncryptionKey } from './secret-box';

/**
 * Without ENCRYPTION_KEY the server makes one key and keeps it in DATA_DIR, so stored credentials
 * stay readable after a restart. Several processes on PostgreSQL must share ENCRYPTION_KEY instead.
 * A damaged file is an error, never replaced: a new key would lock every connection out.
 */
export function loadOrCreateEncryptionKey(dataDir: string): Buffer {
  const file = join(dataDir, 'encryption-key');
  let existing: string | undefined;
  try {
    existing = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  if (existing !== undefined) {
    const key = parseEncryptionKey(existing);
    if (!key) throw new Error(`${file} ${ENCRYPTION_KEY_FORMAT}; restore it from a backup or set ENCRYPTION_KEY`);
    return key;
  }
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32);
  // wx: two processes starting at once on one folder must not each write their own key.
  try {
    writeFileSync(file, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return loadOrCreateEncryptionKey(dataDir);
    throw error;
  }
  chmodSync(file, 0o600);
  return key;
}
