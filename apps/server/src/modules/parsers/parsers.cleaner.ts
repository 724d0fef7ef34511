import { eq } from 'drizzle-orm';
import { parserMailboxes, parserMails } from '../../db/schema';
import type { TenantDataCleaner } from '../../lib/tenant-data';

/** Clear-all-data: the mail log (raw mails included) and mailbox cursors; the parsers go with the integrations. */
export const parsersCleaner: TenantDataCleaner = {
  name: 'parsers',
  clear: async (tx, userId) => {
    await tx.delete(parserMails).where(eq(parserMails.accountId, userId));
    await tx.delete(parserMailboxes).where(eq(parserMailboxes.accountId, userId));
  },
};
