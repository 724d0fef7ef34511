// Pure: what the http destination sends. The body is the contract our users code against; change it additively.
import type { Assignee, Lead } from '@leadrelay/shared';
import type { DeliveryInput } from '../kit/types';

export type HttpFormat = 'lead' | 'lead+raw';

export interface HttpLeadBody {
  /** The idempotency key: the same lead to the same destination always has the same id. */
  id: string;
  lead: Lead;
  assignee: Assignee | null;
  /** The source's raw payload, only with format 'lead+raw'. */
  raw?: unknown;
  /** ISO time of this attempt; covered by the signature, so receivers can refuse stale replays. */
  sentAt: string;
}

export function toHttpBody(input: DeliveryInput, format: HttpFormat = 'lead', now = new Date()): HttpLeadBody {
  const body: HttpLeadBody = {
    id: input.idempotencyKey,
    lead: input.lead,
    assignee: input.assignee ?? null,
    sentAt: now.toISOString(),
  };
  if (format === 'lead+raw') body.raw = input.raw ?? null;
  return body;
}

/** The body testConnection sends: receivers can recognise and ignore it. */
export function toTestBody(now = new Date()): { id: string; test: true; sentAt: string } {
  return { id: `test-${now.getTime()}`, test: true, sentAt: now.toISOString() };
}
