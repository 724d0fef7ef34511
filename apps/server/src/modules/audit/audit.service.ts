// The operator's audit log (docs/audit.md): every privileged action is recorded in the same
// transaction as the change it describes, so a change and its entry land or fail together. An
// action taken with an API key names the key (issue 34): the actor is the key's account, and the
// key's name and id go with the entry's details and come back as `actor.apiKey`.
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
  /** The API key the request was made with: its name is kept with the entry (details.apiKey). */
  apiKey?: { id: string; name: string };
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
    ...(request.auth?.apiKey ? { apiKey: { id: request.auth.apiKey.id, name: request.auth.apiKey.name } } : {}),
  };
}

export async function recordAudit(db: Executor, actor: AuditActor, entry: AuditEntry): Promise<void> {
  const { apiKey, ...person } = actor;
  const details = entry.details ?? {};
  await db.insert(auditLog).values({
    ...person,
    action: entry.action,
    targetType: entry.targetType,
    targetId: entry.targetId ?? null,
    targetLabel: entry.targetLabel ?? null,
    details: apiKey ? { ...details, apiKey: apiKey.name, apiKeyId: apiKey.id } : details,
  });
}

/** The API key an entry's actor used, from its details. */
function keyOf(details: Record<string, unknown>): { id: string; name: string } | undefined {
  const { apiKey, apiKeyId } = details;
  return typeof apiKey === 'string' && typeof apiKeyId === 'string' ? { id: apiKeyId, name: apiKey } : undefined;
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
      actor: { _id: r.actorId, login: r.actorLogin, ...(keyOf(r.details) ? { apiKey: keyOf(r.details) } : {}) },
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
