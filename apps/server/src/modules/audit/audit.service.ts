// The operator's audit log (docs/audit.md): every privileged action is recorded in the same
// transaction as the change it describes, so a change and its entry land or fail together.
import { and, count, desc, eq, like, type SQL } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Executor } from '../../db/client';
import { auditLog } from '../../db/schema';

/** Who did it and from where: taken from the signed-in request. */
export interface AuditActor {
  actorId: string;
  actorLogin: string;
  ip: string | null;
  userAgent: string | null;
}

export interface AuditEntry {
  action: string;
  targetType: string;
  targetId?: string | null;
  targetLabel?: string | null;
  details?: Record<string, unknown>;
}

/** The actor of a signed-in request (routes with access `privileged` or `owner`). */
export function auditActor(request: FastifyRequest): AuditActor {
  const user = request.auth?.user;
  if (!user) throw new Error('auditActor needs a signed-in request');
  const agent = request.headers['user-agent'];
  return {
    actorId: user.id,
    actorLogin: user.login,
    ip: request.ip ?? null,
    userAgent: typeof agent === 'string' ? agent.slice(0, 500) : null,
  };
}

export async function recordAudit(db: Executor, actor: AuditActor, entry: AuditEntry): Promise<void> {
  await db.insert(auditLog).values({
    ...actor,
    action: entry.action,
    targetType: entry.targetType,
    targetId: entry.targetId ?? null,
    targetLabel: entry.targetLabel ?? null,
    details: entry.details ?? {},
  });
}

export interface AuditQuery {
  page: number;
  limit: number;
  /** An action or a prefix of one: `user` matches `user.enter`, `user.update`... */
  action?: string;
  actorId?: string;
  targetId?: string;
}

/** Newest first, with `total` for paging. */
export async function listAudit(db: Executor, query: AuditQuery) {
  const conditions: SQL[] = [];
  if (query.action) conditions.push(like(auditLog.action, `${query.action.replace(/[\\%_]/g, '\\$&')}%`));
  if (query.actorId) conditions.push(eq(auditLog.actorId, query.actorId));
  if (query.targetId) conditions.push(eq(auditLog.targetId, query.targetId));
  const where = conditions.length ? and(...conditions) : undefined;
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(auditLog)
      .where(where)
      .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
    db.select({ n: count() }).from(auditLog).where(where),
  ]);
  return {
    data: rows.map((r) => ({
      _id: String(r.id),
      actor: { _id: r.actorId, login: r.actorLogin },
      action: r.action,
      targetType: r.targetType,
      targetId: r.targetId,
      targetLabel: r.targetLabel,
      details: r.details,
      ip: r.ip,
      userAgent: r.userAgent,
      createdAt: r.createdAt.toISOString(),
    })),
    total: total?.n ?? 0,
  };
}
