// The account's choice of the guardian's mails (the guardian screen's settings).
import type { GuardianSettings } from '@leadrelay/shared';
import type { Executor } from '../../db/client';
import { guardianSettings } from '../../db/schema';
import { DEFAULT_SETTINGS, ownerOf } from './guardian-notify';

export async function getSettings(db: Executor, accountId: string): Promise<GuardianSettings> {
  return (await ownerOf(db, accountId))?.settings ?? DEFAULT_SETTINGS;
}

export async function saveSettings(db: Executor, accountId: string, next: GuardianSettings): Promise<GuardianSettings> {
  const values = { mailDrought: next.mailDrought, mailExpiry: next.mailExpiry, weeklyMail: next.weeklyMail };
  await db
    .insert(guardianSettings)
    .values({ accountId, ...values })
    .onConflictDoUpdate({ target: guardianSettings.accountId, set: { ...values, updatedAt: new Date() } });
  return values;
}
