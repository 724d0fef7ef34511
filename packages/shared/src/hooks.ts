import { z } from 'zod';

/** What became of one inbound event (architecture: "Hook"). */
export const HOOK_STATUSES = [
  'accepted',
  'filtered',
  'duplicate',
  'pending',
  'delivered',
  'partial',
  'failed',
] as const;
export type HookStatus = (typeof HOOK_STATUSES)[number];

export const DELIVERY_STATUSES = ['pending', 'running', 'delivered', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export const ATTEMPT_OUTCOMES = ['ok', 'retryable', 'permanent'] as const;
export type AttemptOutcome = (typeof ATTEMPT_OUTCOMES)[number];

const ZPage = z.coerce.number().int().min(1).max(100_000).default(1);
const ZLimit = z.coerce.number().int().min(1).max(100).default(10);

export const ZHookListQuery = z
  .object({
    page: ZPage,
    limit: ZLimit,
    integrationId: z.uuid({ message: 'VALIDATION_ERROR' }).optional(),
    status: z.enum(HOOK_STATUSES).optional(),
    search: z.string().trim().max(200).optional(),
  })
  .strict();
export type HookListQuery = z.infer<typeof ZHookListQuery>;

export const ZPageQuery = z.object({ page: ZPage, limit: ZLimit }).strict();

export const ZHookIds = z
  .object({
    ids: z
      .array(z.uuid({ message: 'VALIDATION_ERROR' }))
      .min(1)
      .max(1000),
  })
  .strict();
