import { randomBytes } from 'node:crypto';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readOrCreateSecretFile } from './secret-file';

const makeSecret = () => randomBytes(48).toString('base64url');

/**
 * Without JWT_SECRET the server makes one secret and keeps it in DATA_DIR, so sign-ins survive
 * a restart. Several API processes on PostgreSQL must share JWT_SECRET instead.
 */
export function loadOrCreateJwtSecret(dataDir: string): string {
  const existing = readOrCreateSecretFile(dataDir, 'jwt-secret', makeSecret);
  if (existing.length >= 32) return existing;
  // A damaged secret is replaced: the cost is only that everyone signs in again.
  const file = join(dataDir, 'jwt-secret');
  const secret = makeSecret();
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return secret;
}
