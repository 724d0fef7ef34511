// Who gets a lead, and when it passes to the next manager (issue 19 part 3; docs/adr/010-manager-bot.md).
// Pure decisions over a clock the caller gives: round-robin over the managers on duty (within their
// working hours and not away), what happens when nobody is on (the lead waits for the first who
// comes on, or goes to a fallback person: never to everyone), and escalation: a lead nobody took
// within N minutes of *working* time passes to the next manager on duty, and the owner is told.
import { addWorkingTime, isWorkingAt, nextWorkingStart, type WorkingHours } from './working-time';

export interface Manager {
  id: string;
  name: string;
  hours: WorkingHours;
  /** The "away" switch (from the web or the bot): off duty whatever the hours say. */
  away: boolean;
}

export interface RoutingPolicy {
  /** When nobody is on duty: wait for the first who comes on, or give it to `fallbackId`. */
  whenNobody: 'wait' | 'fallback';
  fallbackId?: string;
  /** Minutes of working time a manager has to take a lead before it passes on; null: never. */
  escalateAfterMinutes: number | null;
}

export type Decision =
  | { kind: 'assign'; to: Manager; escalateAt: Date | null }
  | { kind: 'wait'; until: Date | null }
  | { kind: 'done' };

export const onDuty = (m: Manager, at: Date): boolean => !m.away && isWorkingAt(m.hours, at);

/** When the escalation of a lead given to `m` at `at` is due; null without escalation or working time. */
export function escalationDue(m: Manager, at: Date, policy: RoutingPolicy): Date | null {
  if (policy.escalateAfterMinutes === null) return null;
  return addWorkingTime(m.hours, at, policy.escalateAfterMinutes * 60_000);
}

/** The first instant one of the managers is on duty again (the away ones are not counted). */
function firstOnDuty(managers: readonly Manager[], at: Date): Date | null {
  const starts = managers
    .filter((m) => !m.away)
    .map((m) => nextWorkingStart(m.hours, at))
    .filter((d): d is Date => d !== null);
  return starts.length ? new Date(Math.min(...starts.map((d) => d.getTime()))) : null;
}

/**
 * The manager after position `after` in the list (round-robin, wrapping) who is on duty now and
 * not in `skip`; undefined when none is.
 */
function nextOnDuty(
  managers: readonly Manager[],
  after: number,
  at: Date,
  skip: ReadonlySet<string>,
): Manager | undefined {
  for (let step = 1; step <= managers.length; step++) {
    const m = managers[(after + step + managers.length) % managers.length]!;
    if (!skip.has(m.id) && onDuty(m, at)) return m;
  }
  return undefined;
}

function nobodyOn(managers: readonly Manager[], policy: RoutingPolicy, now: Date): Decision {
  const fallback = policy.whenNobody === 'fallback' ? managers.find((m) => m.id === policy.fallbackId) : undefined;
  if (fallback) return { kind: 'assign', to: fallback, escalateAt: null };
  return { kind: 'wait', until: firstOnDuty(managers, now) };
}

/**
 * A new lead: the next manager on duty after the one who got the previous lead (`lastIndex`, -1
 * for none), or what the policy says when nobody is on.
 */
export function assignOnArrival(
  managers: readonly Manager[],
  lastIndex: number,
  policy: RoutingPolicy,
  now: Date,
): Decision {
  const to = nextOnDuty(managers, lastIndex, now, new Set());
  if (!to) return nobodyOn(managers, policy, now);
  return { kind: 'assign', to, escalateAt: escalationDue(to, now, policy) };
}

/**
 * A lead given to managers in turn (`given`, oldest first, each with when): done once taken; until
 * the current manager's time is up, wait; then the next manager on duty who has not had it yet (or,
 * once all have, anyone on duty but the current one). The owner is told on every pass.
 */
export function escalate(
  managers: readonly Manager[],
  given: readonly { managerId: string; at: Date }[],
  taken: boolean,
  policy: RoutingPolicy,
  now: Date,
): Decision {
  if (taken) return { kind: 'done' };
  const current = given.at(-1);
  if (!current) return assignOnArrival(managers, -1, policy, now);
  if (policy.escalateAfterMinutes === null) return { kind: 'wait', until: null };
  // A holder no longer in the list (removed from the collection) has no time left.
  const holder = managers.find((m) => m.id === current.managerId);
  const due = holder ? escalationDue(holder, current.at, policy) : now;
  if (due && due > now) return { kind: 'wait', until: due };
  const index = managers.findIndex((m) => m.id === current.managerId);
  const had = new Set(given.map((g) => g.managerId));
  const to = nextOnDuty(managers, index, now, had) ?? nextOnDuty(managers, index, now, new Set([current.managerId]));
  if (!to) {
    const decision = nobodyOn(
      managers.filter((m) => m.id !== current.managerId),
      policy,
      now,
    );
    // A fallback who already holds it keeps it; otherwise wait for someone to come on.
    return decision.kind === 'assign' && decision.to.id === current.managerId
      ? { kind: 'wait', until: null }
      : decision;
  }
  return { kind: 'assign', to, escalateAt: escalationDue(to, now, policy) };
}
