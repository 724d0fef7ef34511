import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { ENCRYPTION_KEY_FORMAT, parseEncryptionKey } from './secret-box';
import { readOrCreateSecretFile } from './secret-file';

/**
 * Without ENCRYPTION_KEY the server makes one key and keeps it in DATA_DIR, so stored credentials
 * stay readable after a restart. Several processes on PostgreSQL must share ENCRYPTION_KEY instead.
 * A damaged file is an error, never replaced: a new key would lock every connection out.
 */
export function loadOrCreateEncryptionKey(dataDir: string): Buffer {
  const text = readOrCreateSecretFile(dataDir, 'encryption-key', () => randomBytes(32).toString('base64'));
  const key = parseEncryptionKey(text);
  if (!key) {
    const file = join(dataDir, 'encryption-key');
    throw new Error(`${file} ${ENCRYPTION_KEY_FORMAT}; restore it from a backup or set ENCRYPTION_KEY`);
  }
  return key;
}
