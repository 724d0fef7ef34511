import { bigserial, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

// The operator's audit log: one row per privileged action (enter as a user, plan or role change,
// deletes, password resets, translation and catalogue edits). Append-only: a trigger in the
// migration refuses UPDATE and DELETE, so nobody can edit it from the app. It names people by id
// and keeps their login as it was, so an entry outlives a hard-deleted account (docs/audit.md).
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    actorId: uuid('actor_id').notNull(),
    actorLogin: text('actor_login').notNull(),
    /** A dotted code such as `user.enter`, `user.update`, `translation.update`. */
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id'),
    /** A readable name of the target as it was (a login, a key, a slug). */
    targetLabel: text('target_label'),
    /** What changed: `{ field: [before, after] }` or the action's parameters; never a secret. */
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    ip: text('ip'),
    userAgent: text('user_agent'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('audit_log_created_idx').on(t.createdAt),
    index('audit_log_actor_idx').on(t.actorId, t.createdAt),
    index('audit_log_target_idx').on(t.targetType, t.targetId),
  ],
);

export type AuditRow = typeof auditLog.$inferSelect;
