// The account's time zone (issue 31): every day the account is shown (the dashboard chart, the
// guardian, speed to lead, the weekly mail) begins at midnight in it. Europe/Kyiv unless the account
// set another on its settings page; PATCH /api/account checks the name against PostgreSQL's list, so
// it can go straight into `at time zone`.
import { DEFAULT_TIME_ZONE } from '@leadrelay/shared';
import { eq } from 'drizzle-orm';
import type { Executor } from '../db/client';
import { users } from '../db/schema';

/** The account's IANA zone; the default for an account that is gone. */
export async function accountTimeZone(db: Executor, accountId: string): Promise<string> {
  const [row] = await db.select({ zone: users.timeZone }).from(users).where(eq(users.id, accountId));
  return row?.zone ?? DEFAULT_TIME_ZONE;
}
