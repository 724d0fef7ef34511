// Sealing rows again with the current key after a rotation (ENCRYPTION_KEY_PREVIOUS): each
// module lists its rows and writes one back only while it still holds what was read.
import { type SealedSecret, type SecretBox, SecretUnreadableError } from './secret-box';

export type SealedRow = { id: string; token: SealedSecret };

/** Reseals the rows that need it through `write` (which returns rows updated); counts the ones no key opens. */
export async function resealRows(
  secrets: SecretBox,
  rows: SealedRow[],
  write: (row: SealedRow, token: SealedSecret) => Promise<number>,
): Promise<{ resealed: number; unreadable: number }> {
  let resealed = 0;
  let unreadable = 0;
  for (const row of rows) {
    if (!secrets.needsReseal(row.token)) continue;
    try {
      resealed += await write(row, secrets.seal(secrets.open(row.token, row.id), row.id));
    } catch (error) {
      if (!(error instanceof SecretUnreadableError)) throw error;
      unreadable++;
    }
  }
  return { resealed, unreadable };
}
