// Meta's leadgen webhook (external-apis 1.5): the GET verification and the durable acknowledgement
// of a POST. A notification is written to fb_leadgen_events before we answer 200, so a lead Meta
// stops retrying is never lost if the process dies; the worker fetches and ingests it
// (facebook-webhook.job.ts). One row per leadgen_id dedupes Meta's retries and duplicates.
import { type LeadgenNotification, parseLeadgenWebhook, verifySignature } from '@leadrelay/connectors';
import type { AppConfig } from '../../config';
import type { Executor } from '../../db/client';
import { fbLeadgenEvents } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { sameText } from '../../lib/same-text';
import { facebookVerifyToken } from './facebook-subscribe.service';

/** Meta batches up to about 1000 updates per POST; 1 MB holds far more. */
export const FB_WEBHOOK_BODY_LIMIT_BYTES = 1024 * 1024;
const MAX_CHALLENGE = 256;
/** Rows per insert statement (a big batch goes in a few statements of one transaction). */
const INSERT_CHUNK = 500;

/** The challenge to echo when the query is Meta's verification with our verify token; else null (403). */
export function verificationChallenge(
  config: Pick<AppConfig, 'facebook'>,
  query: Record<string, string | undefined>,
): string | null {
  const expected = facebookVerifyToken(config);
  const token = query['hub.verify_token'];
  const challenge = query['hub.challenge'];
  if (!expected || query['hub.mode'] !== 'subscribe' || typeof token !== 'string') return null;
  if (typeof challenge !== 'string' || !challenge || challenge.length > MAX_CHALLENGE) return null;
  return sameText(token, expected) ? challenge : null;
}

/**
 * The notifications of a signed POST. The signature is checked over the exact bytes received
 * (401 UNAUTHORIZED when missing, malformed or wrong; nothing is parsed before); a body that
 * is not JSON is 400 INVALID_JSON.
 */
export function signedNotifications(
  config: Pick<AppConfig, 'facebook'>,
  raw: Buffer,
  signature: string | string[] | undefined,
): LeadgenNotification[] {
  const { appSecret } = config.facebook;
  const header = typeof signature === 'string' ? signature : undefined;
  if (!appSecret || !verifySignature(raw, header, appSecret)) throw new AppError('UNAUTHORIZED');
  let body: unknown;
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch {
    throw new AppError('INVALID_JSON');
  }
  return parseLeadgenWebhook(body);
}

/**
 * Stores notifications as pending events; a leadgen_id already stored (Meta's retry or duplicate,
 * or the sweep's find) is left as it is. Returns how many were new.
 */
export async function storeNotifications(
  db: Executor,
  notifications: LeadgenNotification[],
  origin: 'webhook' | 'sweep',
  now = new Date(),
): Promise<number> {
  const byLead = new Map<string, LeadgenNotification>();
  for (const n of notifications) if (!byLead.has(n.leadgenId)) byLead.set(n.leadgenId, n);
  const rows = [...byLead.values()].map((n) => ({
    leadgenId: n.leadgenId,
    pageId: n.pageId,
    formId: n.formId ?? null,
    origin,
    nextAt: now,
    receivedAt: now,
    updatedAt: now,
  }));
  let stored = 0;
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    const inserted = await db
      .insert(fbLeadgenEvents)
      .values(rows.slice(i, i + INSERT_CHUNK))
      .onConflictDoNothing({ target: fbLeadgenEvents.leadgenId })
      .returning({ id: fbLeadgenEvents.id });
    stored += inserted.length;
  }
  return stored;
}
