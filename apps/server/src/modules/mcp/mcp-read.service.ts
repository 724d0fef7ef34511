// What the MCP tools that only read answer (issue 34 part 2): each one the API's own service, scoped
// to the key's account, its answer with words beside the codes in the account's language.
import {
  type HookDetail,
  type Integration,
  type Locale,
  normalizePhone,
  parseReason,
  type Reason,
} from '@leadrelay/shared';
import { and, desc, eq, ilike, isNotNull, sql } from 'drizzle-orm';
import { hooks, leads, plans, users } from '../../db/schema';
import { STORED_REASONS } from '../../lib/error-codes';
import { reasonSentence } from '../../lib/mail/reasons';
import { listAlerts } from '../guardian';
import { getHook } from '../hooks';
import { assertIntegration, listIntegrations } from '../integrations';
import { accountLimits } from '../plans';
import { speedBreakdownOf } from '../reactions';
import type { McpContext } from './mcp-context';
import { wordsOf } from './mcp-words';

/** A reason as a code, its parameters and its sentence. */
export interface ReasonView {
  code: string;
  params?: Record<string, string | number>;
  words: string;
}

const reasonView = (locale: Locale, reason: Reason): ReasonView => ({
  ...reason,
  words: reasonSentence(locale, reason),
});

/** A stored reason (a code with its detail, or a service's text) read as a code with words. */
export const storedReasonView = (locale: Locale, stored: string | null): ReasonView | null =>
  stored ? reasonView(locale, parseReason(stored, STORED_REASONS)) : null;

const PAGE = 100;
/** More integrations than an account has in practice; the tool says when there are more. */
const MAX_INTEGRATIONS = 500;

export async function integrationsView(ctx: McpContext) {
  const { db } = ctx.deps;
  const words = wordsOf(ctx.locale);
  const all: Integration[] = [];
  let total = 0;
  for (let page = 1; all.length < MAX_INTEGRATIONS; page++) {
    const list = await listIntegrations(db, ctx.principal.actor, { page, limit: PAGE });
    total = list.total;
    all.push(...list.data);
    if (list.data.length < PAGE) break;
  }
  return {
    total,
    integrations: all.map((i) => ({
      id: i._id,
      name: i.name,
      type: i.type,
      kind: i.kind,
      active: i.active,
      state: {
        code: i.state.code,
        words: words.state[i.state.code],
        reason: i.state.reason ? reasonView(ctx.locale, i.state.reason) : null,
      },
      destinations: i.destination.map((d) => ({ id: d._id, name: d.name, type: d.type })),
    })),
  };
}

/** How a query names a lead: an e-mail address, a phone number (as ingest normalises it) or a name. */
export function leadQuery(query: string): { by: 'email' | 'phone' | 'name'; value: string } {
  const text = query.trim();
  if (text.includes('@')) return { by: 'email', value: text.toLowerCase() };
  // Something with several digits and nothing but phone punctuation is a phone number.
  const digits = text.replace(/\D/g, '');
  if (digits.length >= 5 && /^[\d\s()+.-]+$/.test(text)) {
    return { by: 'phone', value: normalizePhone(text) ?? text };
  }
  return { by: 'name', value: text };
}

const likePattern = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The account's leads the query names, newest first, each as the lead log shows it with every attempt. */
export async function findLeads(ctx: McpContext, query: string, limit: number) {
  const { db } = ctx.deps;
  const q = leadQuery(query);
  const field = sql<string>`${leads.fields}->>${q.by}`;
  const match =
    q.by === 'email'
      ? eq(sql`lower(${field})`, q.value)
      : q.by === 'phone'
        ? eq(field, q.value)
        : ilike(field, likePattern(q.value));
  const rows = await db
    .select({ id: hooks.id })
    .from(hooks)
    .innerJoin(leads, eq(leads.id, hooks.leadId))
    .where(and(eq(hooks.accountId, ctx.principal.accountId), isNotNull(hooks.leadId), match))
    .orderBy(desc(hooks.createdAt), desc(hooks.id))
    .limit(limit);
  const found: HookDetail[] = [];
  for (const row of rows) found.push(await getHook(db, ctx.principal.accountId, row.id));
  return { query: q, leads: found.map((hook) => leadView(ctx.locale, hook)) };
}

/** One lead of the lead log: its fields, where it went and every attempt, without the stored traces. */
export function leadView(locale: Locale, hook: HookDetail) {
  const words = wordsOf(locale);
  const lead = hook.lead ?? {};
  const pick = (key: string) => (typeof lead[key] === 'string' ? (lead[key] as string) : null);
  return {
    hookId: hook._id,
    leadId: hook.leadId,
    receivedAt: hook.createdAt,
    source: { id: hook.integration._id, name: hook.integration.name, type: hook.integration.type },
    status: { code: hook.status, words: words.hookStatus[hook.status] },
    reason: storedReasonView(locale, hook.reason),
    isTest: hook.warnings.includes('TEST_LEAD'),
    lead: { name: pick('name'), phone: pick('phone'), email: pick('email'), comment: pick('comment') },
    reactions: hook.reactions.map((r) => ({ kind: r.kind, by: r.byName, via: r.via, at: r.at })),
    deliveries: hook.deliveries.map((d) => ({
      id: d._id,
      destination: { id: d.destination._id, name: d.destination.name, type: d.destination.type },
      status: { code: d.status, words: words.deliveryStatus[d.status] },
      attempts: d.attempts,
      lastError: storedReasonView(locale, d.lastError),
      nextAttemptAt: d.nextAttemptAt,
      deliveredAt: d.deliveredAt,
      attemptsLog: d.attemptsLog.map((a) => ({
        number: a.number,
        outcome: a.outcome,
        httpStatus: a.httpStatus,
        error: storedReasonView(locale, a.error),
        durationMs: a.durationMs,
        startedAt: a.startedAt,
      })),
    })),
  };
}

export async function speedReport(ctx: McpContext, query: { days: number; integrationId?: string }) {
  const { db } = ctx.deps;
  if (query.integrationId) await assertIntegration(db, ctx.principal.accountId, query.integrationId);
  return speedBreakdownOf(db, ctx.principal.accountId, query);
}

export async function guardianAlerts(ctx: McpContext, openOnly: boolean) {
  const words = wordsOf(ctx.locale);
  const alerts = await listAlerts(ctx.deps.db, ctx.principal.accountId);
  const shown = openOnly ? alerts.filter((a) => a.closedAt === null) : alerts;
  return {
    open: alerts.filter((a) => a.closedAt === null).length,
    alerts: shown.map((a) => ({
      id: a._id,
      kind: { code: a.kind, words: words.alertKind[a.kind] },
      integration: a.integration ? { id: a.integration._id, name: a.integration.name, type: a.integration.type } : null,
      connection: a.connection ? { id: a.connection._id, name: a.connection.name } : null,
      silentSince: a.silentSince,
      expected: a.expected,
      expiresAt: a.expiresAt,
      daysAhead: a.daysAhead,
      reason: a.reason ? reasonView(ctx.locale, a.reason) : null,
      openedAt: a.openedAt,
      closedAt: a.closedAt,
      notifiedAt: a.notifiedAt,
    })),
  };
}

export async function planAndUsage(ctx: McpContext) {
  const { db } = ctx.deps;
  const [account] = await db
    .select({ planId: users.planId, expDate: users.expDate, active: users.active, title: plans.title })
    .from(users)
    .leftJoin(plans, eq(plans.id, users.planId))
    .where(eq(users.id, ctx.principal.accountId));
  const planId = account?.planId ?? null;
  const usage = await accountLimits(db, { id: ctx.principal.accountId, planId });
  return {
    plan: { id: planId, title: account?.title?.[ctx.locale] ?? wordsOf(ctx.locale).demoPlan },
    demo: usage.demo,
    active: account?.active ?? false,
    paidUntil: account?.expDate ?? null,
    limits: usage.limits,
    usage: usage.usage,
  };
}
