// The escalation task (its door hands it to the app): every minute, enrol new leads of escalating
// sources and pass on the ones nobody took in time. The owner's mails and the workers' wake-up go
// out after the commit, so a run that rolls back tells nobody; one mail per account and run lists
// its passes.
import type { Locale } from '@leadrelay/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { PeriodicTask } from '../../delivery/periodic';
import { announceDue } from '../../delivery/queue';
import type { EngineEventBus } from '../../lib/events';
import type { Mailer } from '../../lib/mail/mailer';
import { leadsEscalatedMail } from '../../lib/mail/templates';
import { screenUrl } from '../../lib/oauth-state';
import { type EscalationRun, ownersOf, type Pass, runEscalations } from './escalation.service';

export const ESCALATION_TASK = 'lead-escalation';
export const ESCALATION_EVERY_MS = 60_000;

export interface EscalationDeps {
  mailer: Mailer;
  publicUrl: string;
  log: FastifyBaseLogger;
}

export interface EscalationOutcome extends EscalationRun {
  owners: Map<string, { login: string; lang: Locale }>;
}

/** One mail per account with its passes (awaitable: the tests wait for it). */
export async function tellOwners(deps: EscalationDeps, outcome: EscalationOutcome): Promise<void> {
  const byAccount = new Map<string, Pass[]>();
  for (const pass of outcome.passes) byAccount.set(pass.accountId, [...(byAccount.get(pass.accountId) ?? []), pass]);
  for (const [accountId, passes] of byAccount) {
    const owner = outcome.owners.get(accountId);
    if (!owner) continue;
    try {
      const ctx = { lang: owner.lang, publicUrl: deps.publicUrl };
      const mail = await leadsEscalatedMail(ctx, passes, screenUrl(deps.publicUrl, owner.lang, '/admin'));
      await deps.mailer.send({ to: owner.login, ...mail });
    } catch (err) {
      deps.log.error({ err, accountId }, 'escalation mail not sent');
    }
  }
}

export const escalationTasks = (deps: EscalationDeps, events: EngineEventBus): PeriodicTask[] => [
  {
    name: ESCALATION_TASK,
    everyMs: ESCALATION_EVERY_MS,
    async run(tx, now): Promise<EscalationOutcome> {
      const run = await runEscalations(tx, now);
      const owners = await ownersOf(tx, [...new Set(run.passes.map((p) => p.accountId))]);
      return { ...run, owners };
    },
    afterCommit(result) {
      const outcome = result as EscalationOutcome;
      if (outcome.requeued) announceDue(events);
      if (outcome.passes.length) void tellOwners(deps, outcome);
    },
  },
];
