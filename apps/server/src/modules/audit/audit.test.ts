import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, users } from '../../db/schema';
import {
  callAs,
  createTestApp,
  expectError,
  type SignedInUser,
  signUp,
  signUpStaff,
  type TestApp,
} from '../../test/test-app';
import { recordAudit } from './audit.service';

let t: TestApp;
let client: SignedInUser;
let admin: SignedInUser;
beforeAll(async () => {
  t = await createTestApp();
  client = await signUp(t);
  admin = await signUpStaff(t);
});
afterAll(() => t.close());

const actorOf = async (login: string) => {
  const [row] = await t.app.db.select().from(users).where(eq(users.login, login));
  return { actorId: row!.id, actorLogin: row!.login, ip: '203.0.113.7', userAgent: 'test' };
};

describe('audit log', () => {
  it('lists entries newest first to staff, filtered by action prefix', async () => {
    const actor = await actorOf(admin.login);
    await recordAudit(t.app.db, actor, {
      action: 'user.update',
      targetType: 'user',
      targetId: 'a',
      details: { role: ['client', 'support'] },
    });
    await recordAudit(t.app.db, actor, {
      action: 'translation.update',
      targetType: 'translation',
      targetId: 'k',
      targetLabel: 'menu.title',
    });
    const all = await callAs(t, 'GET', '/api/super/audit?page=1&limit=10', admin);
    expect(all.statusCode).toBe(200);
    expect(all.json().data[0]).toMatchObject({
      action: 'translation.update',
      targetLabel: 'menu.title',
      actor: { login: admin.login },
      ip: '203.0.113.7',
    });
    const users_ = await callAs(t, 'GET', '/api/super/audit?page=1&limit=10&action=user', admin);
    expect(users_.json().data.map((e: { action: string }) => e.action)).toEqual(['user.update']);
    expect(users_.json().total).toBe(1);
  });

  it('is for staff only', async () => {
    expectError(await callAs(t, 'GET', '/api/super/audit?page=1&limit=10', client), 403, 'FORBIDDEN');
    expectError(await callAs(t, 'GET', '/api/super/audit?page=1&limit=10', null), 401, 'UNAUTHORIZED');
  });

  it('cannot be edited or removed, not even by SQL from the app', async () => {
    const [entry] = await t.app.db.select().from(auditLog).limit(1);
    await expect(
      t.app.db.update(auditLog).set({ action: 'forged' }).where(eq(auditLog.id, entry!.id)),
    ).rejects.toThrow();
    await expect(t.app.db.delete(auditLog).where(eq(auditLog.id, entry!.id))).rejects.toThrow();
    const [after] = await t.app.db.select().from(auditLog).where(eq(auditLog.id, entry!.id));
    expect(after!.action).toBe(entry!.action);
    const [total] = await t.app.db.select({ n: count() }).from(auditLog);
    expect(total?.n).toBeGreaterThanOrEqual(2);
  });
});
