// Team notes on a lead in the lead log: an account's users write them on the account's own hooks;
// another account's hook or note is not found, never shown.
import type { Comment } from '@leadrelay/shared';
import { and, asc, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { type CommentRow, comments, hooks } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { isUuid } from '../../lib/ids';
import type { TenantDataCleaner } from '../../lib/tenant-data';

const toComment = (row: CommentRow): Comment => ({
  _id: row.id,
  hookId: row.hookId,
  author: row.authorLogin,
  text: row.text,
  createdAt: row.createdAt.toISOString(),
});

async function assertHook(db: Executor, accountId: string, hookId: string): Promise<void> {
  const [row] = await db
    .select({ id: hooks.id })
    .from(hooks)
    .where(and(eq(hooks.id, hookId), eq(hooks.accountId, accountId)));
  if (!row) throw new AppError('HOOK_NOT_FOUND');
}

export async function listComments(db: Executor, accountId: string, hookId: string): Promise<Comment[]> {
  await assertHook(db, accountId, hookId);
  const rows = await db
    .select()
    .from(comments)
    .where(and(eq(comments.hookId, hookId), eq(comments.accountId, accountId)))
    .orderBy(asc(comments.createdAt), asc(comments.id));
  return rows.map(toComment);
}

export async function addComment(
  db: Executor,
  author: { accountId: string; login: string },
  body: { hookId: string; text: string },
): Promise<Comment> {
  await assertHook(db, author.accountId, body.hookId);
  const [row] = await db
    .insert(comments)
    .values({ accountId: author.accountId, hookId: body.hookId, authorLogin: author.login, text: body.text })
    .returning();
  return toComment(row!);
}

export async function deleteComment(db: Executor, accountId: string, id: string): Promise<void> {
  if (!isUuid(id)) throw new AppError('COMMENT_NOT_FOUND');
  const removed = await db
    .delete(comments)
    .where(and(eq(comments.id, id), eq(comments.accountId, accountId)))
    .returning({ id: comments.id });
  if (removed.length === 0) throw new AppError('COMMENT_NOT_FOUND');
}

/** Clearing an account's data removes its notes (they would go with its hooks anyway). */
export const commentsCleaner: TenantDataCleaner = {
  name: 'comments',
  async clear(tx: Executor, userId: string) {
    await tx.delete(comments).where(eq(comments.accountId, userId));
  },
};
