import { and, count, eq, gt, isNull } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { type EmailTokenRow, emailTokens } from '../../db/schema';
import { randomToken, sha256 } from './tokens';

export type EmailTokenKind = 'confirm' | 'reset';
export const EMAIL_TOKEN_TTL_MS: Record<EmailTokenKind, number> = {
  confirm: 48 * 3_600_000,
  reset: 2 * 3_600_000,
};

/** Links of one kind mailed to one account per hour, at most: more would flood the mailbox. */
export const EMAIL_TOKENS_PER_HOUR = 5;

/** Whether another link of this kind may be mailed now (counts the links issued in the last hour). */
export async function canIssueEmailToken(db: Executor, userId: string, kind: EmailTokenKind): Promise<boolean> {
  const [row] = await db
    .select({ n: count() })
    .from(emailTokens)
    .where(
      and(
        eq(emailTokens.userId, userId),
        eq(emailTokens.kind, kind),
        gt(emailTokens.createdAt, new Date(Date.now() - 3_600_000)),
      ),
    );
  return (row?.n ?? 0) < EMAIL_TOKENS_PER_HOUR;
}

/**
 * Returns the raw token for the link; only its hash is stored. `browserHash`: a confirmation
 * link's binding to the browser that asked (confirm-cookie.ts).
 */
export async function createEmailToken(
  db: Executor,
  userId: string,
  kind: EmailTokenKind,
  browserHash: string | null = null,
): Promise<string> {
  const token = randomToken();
  await db.insert(emailTokens).values({
    userId,
    kind,
    tokenHash: sha256(token),
    browserHash,
    expiresAt: new Date(Date.now() + EMAIL_TOKEN_TTL_MS[kind]),
  });
  return token;
}

export async function findValidEmailToken(
  db: Executor,
  token: string,
  kind: EmailTokenKind,
): Promise<EmailTokenRow | undefined> {
  const [row] = await db
    .select()
    .from(emailTokens)
    .where(
      and(
        eq(emailTokens.tokenHash, sha256(token)),
        eq(emailTokens.kind, kind),
        isNull(emailTokens.usedAt),
        gt(emailTokens.expiresAt, new Date()),
      ),
    )
    .limit(1);
  return row;
}

/** Marks the token used; false when another request used it first. */
export async function useEmailToken(db: Executor, id: string): Promise<boolean> {
  const rows = await db
    .update(emailTokens)
    .set({ usedAt: new Date() })
    .where(and(eq(emailTokens.id, id), isNull(emailTokens.usedAt)))
    .returning({ id: emailTokens.id });
  return rows.length === 1;
}

/** Retires every open token of a kind, e.g. older reset links once a password is set. */
export async function retireEmailTokens(db: Executor, userId: string, kind: EmailTokenKind): Promise<void> {
  await db
    .update(emailTokens)
    .set({ usedAt: new Date() })
    .where(and(eq(emailTokens.userId, userId), eq(emailTokens.kind, kind), isNull(emailTokens.usedAt)));
}
