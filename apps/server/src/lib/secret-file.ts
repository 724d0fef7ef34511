import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The text kept in DATA_DIR/<name> (JWT secret, encryption key), made by `make` with mode 0600
 * when the file is missing. Two processes starting at once on one folder agree on one value.
 */
export function readOrCreateSecretFile(dataDir: string, name: string, make: () => string): string {
  const file = join(dataDir, name);
  try {
    return readFileSync(file, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(dataDir, { recursive: true });
  const text = make();
  try {
    writeFileSync(file, `${text}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return readOrCreateSecretFile(dataDir, name, make);
    throw error;
  }
  chmodSync(file, 0o600);
  return text;
}
