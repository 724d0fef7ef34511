import { describe, expect, it } from 'vitest';
import { assignOnArrival, type Decision, escalate, type Manager, type RoutingPolicy } from './escalation';
import { OFFICE_HOURS, type WorkingHours } from './working-time';

const MIN = 60_000;
const at = (iso: string) => new Date(iso);
/** Evenings only, 18:00–23:00 Kyiv, every day. */
const EVENINGS: WorkingHours = {
  timeZone: 'Europe/Kyiv',
  week: Array.from({ length: 7 }, () => [{ from: '18:00', to: '23:00' }]),
  daysOff: [],
};
const manager = (id: string, hours = OFFICE_HOURS, away = false): Manager => ({ id, name: id, hours, away });
const WAIT: RoutingPolicy = { whenNobody: 'wait', escalateAfterMinutes: 15 };

/**
 * A fake clock: from `start`, minute by minute until `end`, ask what to do and do it (a lead taken
 * when `takenAt` comes). The log says who got the lead, when.
 */
function run(managers: Manager[], policy: RoutingPolicy, start: Date, end: Date, takenAt?: Date) {
  const given: { managerId: string; at: Date }[] = [];
  const waits: (Date | null)[] = [];
  for (let t = start.getTime(); t <= end.getTime(); t += MIN) {
    const now = new Date(t);
    const decision: Decision = escalate(managers, given, !!takenAt && now >= takenAt, policy, now);
    if (decision.kind === 'assign') given.push({ managerId: decision.to.id, at: now });
    if (decision.kind === 'wait') waits.push(decision.until);
    if (decision.kind === 'done') break;
  }
  return { given: given.map((g) => `${g.managerId}@${g.at.toISOString()}`), waits };
}

describe('routing a lead to a manager on duty', () => {
  it('goes round the managers on duty, skipping one who is away or off', () => {
    const managers = [
      manager('anna'),
      manager('bohdan', OFFICE_HOURS, true),
      manager('olha', EVENINGS),
      manager('petro'),
    ];
    const noon = at('2026-11-24T10:00:00Z'); // Tuesday 12:00 Kyiv
    const first = assignOnArrival(managers, -1, WAIT, noon);
    expect(first).toMatchObject({ kind: 'assign', to: { id: 'anna' }, escalateAt: at('2026-11-24T10:15:00Z') });
    // After Anna: Bohdan is away, Olha works evenings: Petro.
    expect(assignOnArrival(managers, 0, WAIT, noon)).toMatchObject({ kind: 'assign', to: { id: 'petro' } });
    // At 19:00 Kyiv only Olha is on.
    expect(assignOnArrival(managers, 0, WAIT, at('2026-11-24T17:00:00Z'))).toMatchObject({ to: { id: 'olha' } });
  });

  it('when nobody is on, waits for the first who comes on, or gives it to the fallback: never to everyone', () => {
    const managers = [manager('anna'), manager('olha', EVENINGS)];
    const saturday = at('2026-11-28T06:00:00Z'); // 08:00 Kyiv: Olha starts at 18:00
    expect(assignOnArrival(managers, -1, WAIT, saturday)).toEqual({ kind: 'wait', until: at('2026-11-28T16:00:00Z') });
    const fallback: RoutingPolicy = { whenNobody: 'fallback', fallbackId: 'anna', escalateAfterMinutes: 15 };
    expect(assignOnArrival(managers, -1, fallback, saturday)).toMatchObject({
      kind: 'assign',
      to: { id: 'anna' },
      escalateAt: null,
    });
  });
});

describe('escalation on a fake clock', () => {
  it('passes a lead nobody took after 15 minutes to the next manager, and the next, then stops once taken', () => {
    const managers = [manager('anna'), manager('bohdan'), manager('petro')];
    const start = at('2026-11-24T10:00:00Z');
    const { given } = run(managers, WAIT, start, at('2026-11-24T11:00:00Z'), at('2026-11-24T10:40:00Z'));
    expect(given).toEqual([
      'anna@2026-11-24T10:00:00.000Z',
      'bohdan@2026-11-24T10:15:00.000Z',
      'petro@2026-11-24T10:30:00.000Z',
    ]);
  });

  it('counts working time only: a lead given at Friday 17:50 passes on at Monday 09:05', () => {
    const managers = [manager('anna'), manager('bohdan')];
    const friday = at('2026-11-27T15:50:00Z');
    const { given } = run(managers, WAIT, friday, at('2026-11-30T07:10:00Z'));
    expect(given).toEqual(['anna@2026-11-27T15:50:00.000Z', 'bohdan@2026-11-30T07:05:00.000Z']);
    // All weekend, up to that minute, it waited for Monday 09:05 Kyiv.
    const { waits } = run(managers, WAIT, friday, at('2026-11-30T07:04:00Z'));
    expect(new Set(waits.map((w) => w?.toISOString()))).toEqual(new Set(['2026-11-30T07:05:00.000Z']));
  });

  it('goes round again once everyone had it, never to someone off duty, and keeps it when nobody else is on', () => {
    const managers = [manager('anna'), manager('bohdan'), manager('olha', EVENINGS)];
    const { given } = run(managers, WAIT, at('2026-11-24T10:00:00Z'), at('2026-11-24T10:50:00Z'));
    expect(given).toEqual([
      'anna@2026-11-24T10:00:00.000Z',
      'bohdan@2026-11-24T10:15:00.000Z',
      'anna@2026-11-24T10:30:00.000Z',
      'bohdan@2026-11-24T10:45:00.000Z',
    ]);
    // Alone on duty: Anna keeps the lead, the decision is to wait.
    const alone = [manager('anna'), manager('olha', EVENINGS)];
    const lone = run(alone, WAIT, at('2026-11-24T10:00:00Z'), at('2026-11-24T10:40:00Z'));
    expect(lone.given).toEqual(['anna@2026-11-24T10:00:00.000Z']);
  });

  it('never passes a lead on when the integration does not escalate', () => {
    const policy: RoutingPolicy = { ...WAIT, escalateAfterMinutes: null };
    const { given } = run(
      [manager('anna'), manager('bohdan')],
      policy,
      at('2026-11-24T10:00:00Z'),
      at('2026-11-24T14:00:00Z'),
    );
    expect(given).toEqual(['anna@2026-11-24T10:00:00.000Z']);
  });

  it('keeps the clock across the night and, with nobody else on when it runs out, waits for the next to come on', () => {
    const managers = [manager('anna'), manager('olha', EVENINGS)];
    // Anna got it at 17:50 Kyiv on Tuesday: 10 of her 15 minutes that day, 5 on Wednesday from 09:00.
    const given = [{ managerId: 'anna', at: at('2026-11-24T15:50:00Z') }];
    // At 19:00 on Tuesday Olha is on, but Anna's time is not up: the lead stays with Anna.
    expect(escalate(managers, given, false, WAIT, at('2026-11-24T17:00:00Z'))).toEqual({
      kind: 'wait',
      until: at('2026-11-25T07:05:00Z'),
    });
    // At 09:05 on Wednesday it is up, and nobody else is on: wait for Olha at 18:00.
    expect(escalate(managers, given, false, WAIT, at('2026-11-25T07:05:00Z'))).toEqual({
      kind: 'wait',
      until: at('2026-11-25T16:00:00Z'),
    });
    // At 18:00 Olha gets it, with her own 15 minutes.
    expect(escalate(managers, given, false, WAIT, at('2026-11-25T16:00:00Z'))).toEqual({
      kind: 'assign',
      to: managers[1],
      escalateAt: at('2026-11-25T16:15:00Z'),
    });
  });
});
