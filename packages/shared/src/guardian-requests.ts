// Request bodies and queries of the guardian's API (issue 19 part 4).
import { z } from 'zod';
import { RECONCILIATION_MAX_DAYS } from './guardian';

export const ZReconciliationQuery = z.object({
  days: z.coerce
    .number({ message: 'VALIDATION_ERROR' })
    .int({ message: 'VALIDATION_ERROR' })
    .min(1, { message: 'VALIDATION_ERROR' })
    .max(RECONCILIATION_MAX_DAYS, { message: 'VALIDATION_ERROR' })
    .default(7),
});
export type ReconciliationQuery = z.infer<typeof ZReconciliationQuery>;

export const ZGuardianSettings = z
  .object({
    mailDrought: z.boolean({ message: 'VALIDATION_ERROR' }),
    mailExpiry: z.boolean({ message: 'VALIDATION_ERROR' }),
    weeklyMail: z.boolean({ message: 'VALIDATION_ERROR' }),
  })
  .strict();
