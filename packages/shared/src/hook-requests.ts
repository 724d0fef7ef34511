// Request bodies and queries of the hooks' API (spec section 7, GET /api/hook…).
import { z } from 'zod';
import { HOOK_STATUSES } from './hooks';

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
