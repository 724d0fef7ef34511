// Request bodies and queries of the reactions' API (issue 19: speed to lead).
import { z } from 'zod';
import { REACTION_KINDS, SPEED_TO_LEAD_MAX_DAYS } from './reactions';

export const ZReactionBody = z.object({ kind: z.enum(REACTION_KINDS, { message: 'VALIDATION_ERROR' }) });

export const ZSpeedToLeadQuery = z.object({
  days: z.coerce
    .number({ message: 'VALIDATION_ERROR' })
    .int({ message: 'VALIDATION_ERROR' })
    .min(1, { message: 'VALIDATION_ERROR' })
    .max(SPEED_TO_LEAD_MAX_DAYS, { message: 'VALIDATION_ERROR' })
    .default(30),
  integrationId: z.uuid({ message: 'VALIDATION_ERROR' }).optional(),
});
export type SpeedToLeadQuery = z.infer<typeof ZSpeedToLeadQuery>;
