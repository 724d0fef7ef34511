// The owner's own Telegram (issue 19 part 4: "the account is told in Telegram and by e-mail"),
// through the API, the bot's webhook and the Telegram Bot API emulator: the owner's one-time code
// (expired, reused, another account's bot), /start storing the owner's chat, the drought notice in
// the owner's chat and by mail, mail only when not linked, and a bot the owner blocked failing that
// channel alone.
import { startTelegramEmulator, type TelegramEmulator } from '@leadrelay/connectors/telegram/emulator';
import { eq } from 'drizzle-orm';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardianAlerts, guardianSettings, integrations, leads, telegramLinkCodes, users } from '../../db/schema';
import { openAccessAlerts } from '../../lib/access-alerts';
import { freePort } from '../../test/free-port';
import { accountIdOf, createSource } from '../../test/routing-fixtures';
import {
  callAs,
  createTestApp,
  expectError,
  type Method,
  onUnlimitedPlan,
  type SignedInUser,
  signUp,
  type TestApp,
} from '../../test/test-app';
import { onDestinationBroken } from '../integrations/integration-health';
import { checkDroughts, notifyDroughts } from './guardian.service';
import { checkAccess } from './guardian-access';
import { checkExpiries } from './guardian-expiry';
import type { GuardianDeps } from './guardian-notify';

const OWN = '7200000001:AAH-own-bot-token-for-owner-tests-0123';
const OTHER = '7200000002:AAH-bobs-bot-token-for-owner-tests-012';
const PLATFORM = '7200000009:AAH-platform-bot-token-owner-tests-01';
let tg: TelegramEmulator;
let t: TestApp;
let deps: GuardianDeps;

beforeAll(async () => {
  tg = await startTelegramEmulator({ tokens: [OWN, OTHER, PLATFORM], redeliverMs: 50 });
  const port = await freePort();
  t = await createTestApp({
    publicUrl: `http://127.0.0.1:${port}`,
    allowPrivateDestinations: true,
    crm: { telegram: { apiUrl: tg.apiRoot, botToken: PLATFORM } },
  });
  await t.app.listen({ port, host: '127.0.0.1' });
  deps = { mailer: t.app.mailer, publicUrl: 'http://app.test', log: t.app.log, telegram: t.app.deps };
});
afterAll(async () => {
  await t?.close();
  await tg?.close();
});

const call = (method: Method, url: string, user: SignedInUser | null, body?: unknown) =>
  callAs(t, method, url, user, body);
const lastReplyTo = (chatId: number) => tg.messages.filter((m) => m.chatId === chatId).at(-1)?.text;
const messagesTo = (chatId: number) => tg.messages.filter((m) => m.chatId === chatId);
const mailTo = (login: string) => t.app.mailer.outbox.filter((m) => m.to === login && !m.link?.includes('/confirm'));
const kyiv = (iso: string) => DateTime.fromISO(iso, { zone: 'Europe/Kyiv' });

async function owner(lang: 'uk' | 'en' = 'uk') {
  const user = await onUnlimitedPlan(t, await signUp(t));
  const accountId = await accountIdOf(t.app.db, user.login);
  await t.app.db.update(users).set({ lang }).where(eq(users.id, accountId));
  return { user, accountId };
}

async function telegramIntegration(
  user: SignedInUser,
  connect: { mode: 'own'; botToken: string } | { mode: 'platform' },
) {
  const created = await call('POST', '/api/integrations', user, { type: 'telegram', name: 'Managers bot' });
  expect(created.statusCode).toBe(201);
  const id = created.json()._id as string;
  expect((await call('POST', '/api/telegram/connect', user, { integrationId: id, ...connect })).statusCode).toBe(200);
  return id;
}

/** The owner opens the deep link: /start <code> reaches our webhook through the emulator. */
async function linkOwner(user: SignedInUser, token = OWN) {
  const made = await call('POST', '/api/guardian/telegram/link-code', user, {});
  expect(made.statusCode).toBe(201);
  const chat = tg.addUser({ first_name: 'Owner', username: `owner${Date.now()}`, language_code: 'uk' });
  await tg.userSends(token, chat.id, `/start ${made.json().code}`);
  return { chat, code: made.json().code as string };
}

const linkOf = async (accountId: string) =>
  (await t.app.db.select().from(guardianSettings).where(eq(guardianSettings.accountId, accountId)))[0]?.telegram ??
  null;

describe("linking the owner's Telegram", () => {
  it('says no bot is connected, then links the owner once with a 15-minute code, answering in their language', async () => {
    const { user, accountId } = await owner('en');
    expect((await call('GET', '/api/guardian/telegram', user)).json()).toEqual({ linked: null, bot: null });
    expectError(await call('POST', '/api/guardian/telegram/link-code', user, {}), 400, 'INTEGRATION_NOT_CONNECTED');

    const bot = await telegramIntegration(user, { mode: 'own', botToken: OWN });
    expect((await call('GET', '/api/guardian/telegram', user)).json()).toEqual({
      linked: null,
      bot: { integrationId: bot, botUsername: 'leadrelay_7200000001_bot' },
    });
    const made = await call('POST', '/api/guardian/telegram/link-code', user, {});
    expect(made.statusCode).toBe(201);
    const { code, url, expiresAt } = made.json();
    expect(url).toBe(`https://t.me/leadrelay_7200000001_bot?start=${code}`);
    expect(new Date(expiresAt).getTime() - Date.now()).toBeGreaterThan(14 * 60_000);

    // The Telegram user writes in Ukrainian, the account is English: the answer follows the account.
    const chat = tg.addUser({ first_name: 'Anna', username: 'anna_owner', language_code: 'uk' });
    await tg.userSends(OWN, chat.id, `/start ${code}`);
    expect(lastReplyTo(chat.id)).toContain("Done: LeadRelay's warnings");
    expect(await linkOf(accountId)).toMatchObject({ integrationId: bot, chatId: chat.id, username: 'anna_owner' });
    expect((await call('GET', '/api/guardian/telegram', user)).json()).toMatchObject({
      linked: { username: 'anna_owner', integrationId: bot },
    });

    // Used once: somebody else with the same code links nothing.
    const stranger = tg.addUser({ first_name: 'Stranger', language_code: 'en' });
    await tg.userSends(OWN, stranger.id, `/start ${code}`);
    expect(lastReplyTo(stranger.id)).toContain('The code does not fit');
    expect((await linkOf(accountId))?.chatId).toBe(chat.id);

    // Expired after 15 minutes.
    const late = await call('POST', '/api/guardian/telegram/link-code', user, {});
    await t.app.db
      .update(telegramLinkCodes)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(telegramLinkCodes.code, late.json().code));
    await tg.userSends(OWN, stranger.id, `/start ${late.json().code}`);
    expect(lastReplyTo(stranger.id)).toContain('The code does not fit');
    expect((await linkOf(accountId))?.chatId).toBe(chat.id);

    // Unlinked: no chat, the bot still offered.
    expect((await call('DELETE', '/api/guardian/telegram', user)).statusCode).toBe(200);
    expect(await linkOf(accountId)).toBeNull();
    expect((await call('GET', '/api/guardian/telegram', user)).json()).toMatchObject({ linked: null });
  });

  it("answers 404 for another account's bot, and an owner's code does nothing on another bot", async () => {
    const alice = await owner();
    const bob = await owner();
    const bobsBot = await telegramIntegration(bob.user, { mode: 'own', botToken: OTHER });
    await telegramIntegration(alice.user, { mode: 'platform' });
    expectError(
      await call('POST', '/api/guardian/telegram/link-code', alice.user, { integrationId: bobsBot }),
      404,
      'INTEGRATION_NOT_FOUND',
    );
    expect(
      (await call('POST', '/api/guardian/telegram/link-code', alice.user, { integrationId: 'x' })).statusCode,
    ).toBe(404);
    // Alice's code is for the platform's bot; sent to Bob's bot, it links nobody.
    const made = await call('POST', '/api/guardian/telegram/link-code', alice.user, {});
    expect(made.json().botUsername).toBe('leadrelay_7200000009_bot');
    const chat = tg.addUser({ first_name: 'Eve', language_code: 'uk' });
    await tg.userSends(OTHER, chat.id, `/start ${made.json().code}`);
    expect(lastReplyTo(chat.id)).toContain('Код не підходить');
    expect(await linkOf(alice.accountId)).toBeNull();
    expect(await linkOf(bob.accountId)).toBeNull();
    // On the platform's bot it links Alice, in Ukrainian.
    await tg.userSends(PLATFORM, chat.id, `/start ${made.json().code}`);
    expect(lastReplyTo(chat.id)).toContain('Готово: сюди приходитимуть попередження LeadRelay');
    expect((await linkOf(alice.accountId))?.chatId).toBe(chat.id);
    expect(await linkOf(bob.accountId)).toBeNull();
  });

  it('needs a signed-in client', async () => {
    expect((await call('GET', '/api/guardian/telegram', null)).statusCode).toBe(401);
    expect((await call('POST', '/api/guardian/telegram/link-code', null, {})).statusCode).toBe(401);
    expect((await call('DELETE', '/api/guardian/telegram', null)).statusCode).toBe(401);
  });
});

/** Four weeks of a weekday 09:00–18:00 source, a lead every 12 minutes, up to `until`. */
function officeHours(until: DateTime, weeks = 4): Date[] {
  const out: Date[] = [];
  for (let day = until.minus({ weeks }).startOf('day'); day < until; day = day.plus({ days: 1 })) {
    if (day.weekday > 5) continue;
    for (let at = day.set({ hour: 9 }); at < day.set({ hour: 18 }) && at < until; at = at.plus({ minutes: 12 })) {
      out.push(at.toJSDate());
    }
  }
  return out;
}

/** A source with an office-hours history up to Tuesday 10:00, named "Site form". */
async function silentSource(accountId: string) {
  const source = await createSource(t.app.db, accountId, { destinationIds: [] });
  await t.app.db.update(integrations).set({ name: 'Site form' }).where(eq(integrations.id, source.id));
  await t.app.db.insert(leads).values(
    officeHours(kyiv('2026-11-24T10:00')).map((createdAt) => ({
      accountId,
      integrationId: source.id,
      fields: { name: 'Lead', custom: {} },
      raw: {},
      createdAt,
    })),
  );
  return source;
}

const droughtRun = (at: DateTime, d = deps) =>
  t.app.db.transaction(async (tx) => {
    await checkDroughts(tx, at.toJSDate());
    return notifyDroughts(d, tx, at.toJSDate());
  });

describe("the drought notice in the owner's Telegram", () => {
  it('goes to the linked chat in the owner’s language with the link, and by mail, once per drought', async () => {
    const { user, accountId } = await owner('en');
    await telegramIntegration(user, { mode: 'own', botToken: OWN });
    const { chat } = await linkOwner(user);
    await silentSource(accountId);
    const before = messagesTo(chat.id).length;

    await droughtRun(kyiv('2026-11-24T12:30'));
    const sent = messagesTo(chat.id).slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.parseMode).toBe('HTML');
    expect(sent[0]!.text).toContain('No leads from "Site form"');
    expect(sent[0]!.text).toContain('http://app.test/en/admin/guardian');
    expect(mailTo(user.login).map((m) => m.subject)).toEqual(['LeadRelay: leads stopped coming from "Site form"']);

    await droughtRun(kyiv('2026-11-24T13:30'));
    expect(messagesTo(chat.id).slice(before)).toHaveLength(1);
    expect(mailTo(user.login)).toHaveLength(1);
  });

  it('is mail only when the owner linked no chat', async () => {
    const { user, accountId } = await owner('uk');
    await telegramIntegration(user, { mode: 'own', botToken: OWN });
    await silentSource(accountId);
    const before = tg.messages.length;
    await droughtRun(kyiv('2026-11-24T12:30'));
    expect(tg.messages.length).toBe(before);
    expect(mailTo(user.login)).toHaveLength(1);
    expect(mailTo(user.login)[0]!.subject).toBe('LeadRelay: з «Site form» перестали надходити ліди');
  });

  it('tells by Telegram alone when mails are off; a blocked bot fails Telegram only, and the mail still goes', async () => {
    // Mail off, Telegram linked: told through Telegram, the alert marked told.
    const quiet = await owner('uk');
    await telegramIntegration(quiet.user, { mode: 'own', botToken: OWN });
    const { chat } = await linkOwner(quiet.user);
    await call('PUT', '/api/guardian/settings', quiet.user, { mailDrought: false, mailExpiry: true, weeklyMail: true });
    await silentSource(quiet.accountId);
    const before = messagesTo(chat.id).length;
    await droughtRun(kyiv('2026-11-24T12:30'));
    expect(
      messagesTo(chat.id)
        .slice(before)
        .map((m) => m.text),
    ).toEqual([expect.stringContaining('З «Site form» не надходять ліди')]);
    expect(mailTo(quiet.user.login)).toHaveLength(0);
    const [told] = await t.app.db.select().from(guardianAlerts).where(eq(guardianAlerts.accountId, quiet.accountId));
    expect(told!.notifiedAt).not.toBeNull();

    // The owner blocked the bot: the mail goes, the alert is told, Telegram got nothing.
    const blocked = await owner('en');
    await telegramIntegration(blocked.user, { mode: 'own', botToken: OWN });
    const linked = await linkOwner(blocked.user);
    tg.block(linked.chat.id, OWN);
    await silentSource(blocked.accountId);
    const was = messagesTo(linked.chat.id).length;
    await droughtRun(kyiv('2026-11-24T12:30'));
    expect(messagesTo(linked.chat.id)).toHaveLength(was);
    expect(mailTo(blocked.user.login)).toHaveLength(1);
    const [alert] = await t.app.db.select().from(guardianAlerts).where(eq(guardianAlerts.accountId, blocked.accountId));
    expect(alert!.notifiedAt).not.toBeNull();
  });
});

describe("the expiry warning in the owner's Telegram", () => {
  it('goes to the linked chat with the reconnect link, once, as well as by mail', async () => {
    const { user, accountId } = await owner('uk');
    await telegramIntegration(user, { mode: 'own', botToken: OWN });
    const { chat } = await linkOwner(user);
    const [amo] = await t.app.db
      .insert(integrations)
      .values({ accountId, type: 'amocrm', name: 'Продажі', credentialExpiresAt: kyiv('2026-12-10T12:00').toJSDate() })
      .returning();
    const before = messagesTo(chat.id).length;
    const run = (at: DateTime) => t.app.db.transaction((tx) => checkExpiries(deps, tx, at.toJSDate()));
    await run(kyiv('2026-12-03T13:00'));
    await run(kyiv('2026-12-03T14:00'));
    const sent = messagesTo(chat.id).slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.text).toContain('«Продажі»');
    expect(sent[0]!.text).toContain(`http://app.test/admin/integrations/amocrm/${amo!.id}`);
    expect(mailTo(user.login)).toHaveLength(1);
  });
});

describe("a refused source in the owner's Telegram", () => {
  /** A source the sender refused, as the poll leaves it: broken, its access alert open. */
  async function refusedSource(accountId: string) {
    const source = await createSource(t.app.db, accountId);
    await t.app.db
      .update(integrations)
      .set({ name: 'Заявки з сайту', status: 'broken', statusReason: 'AUTH: HTTP 401' })
      .where(eq(integrations.id, source.id));
    await openAccessAlerts(t.app.db, [{ id: source.id, accountId, type: 'webhook' }], 'AUTH: HTTP 401', new Date());
    return source;
  }
  const accessRun = () => t.app.db.transaction((tx) => checkAccess(deps, tx, new Date()));

  it('goes to the linked chat once, in the owner’s language with the reason and the link; no second mail', async () => {
    const { user, accountId } = await owner('uk');
    await telegramIntegration(user, { mode: 'own', botToken: OWN });
    const { chat } = await linkOwner(user);
    const source = await refusedSource(accountId);
    const before = messagesTo(chat.id).length;
    const mails = mailTo(user.login).length;
    await accessRun();
    await accessRun();
    const sent = messagesTo(chat.id).slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.text).toContain('«Заявки з сайту» більше не отримує ліди');
    // The stored code in the owner's words, never the code itself.
    expect(sent[0]!.text).not.toContain('AUTH: HTTP 401');
    expect(sent[0]!.text).toContain(`http://app.test/admin/integrations/webhook/${source.id}`);
    expect(mailTo(user.login)).toHaveLength(mails);
    const [alert] = await t.app.db.select().from(guardianAlerts).where(eq(guardianAlerts.integrationId, source.id));
    expect(alert!.notifiedAt).not.toBeNull();
  });

  it('refused through integration health: the broken mail goes at once, the linked chat next, one of each', async () => {
    const linked = await owner('en');
    await telegramIntegration(linked.user, { mode: 'own', botToken: OWN });
    const { chat } = await linkOwner(linked.user);
    const unlinked = await owner('en');
    const refuse = async (accountId: string) => {
      const source = await createSource(t.app.db, accountId);
      const input = { destinationId: source.id, reason: 'AUTH: HTTP 401', retryAt: null, access: true };
      await onDestinationBroken(t.app.deps, () => {}, input);
      await onDestinationBroken(t.app.deps, () => {}, input);
      const alertOf = async () =>
        (await t.app.db.select().from(guardianAlerts).where(eq(guardianAlerts.integrationId, source.id)))[0]!;
      return alertOf;
    };
    const before = messagesTo(chat.id).length;
    const linkedAlert = await refuse(linked.accountId);
    const unlinkedAlert = await refuse(unlinked.accountId);
    expect(mailTo(linked.user.login)).toHaveLength(1);
    expect(mailTo(unlinked.user.login)).toHaveLength(1);
    // No chat: the mail told it. A chat: told once the chat is.
    expect((await unlinkedAlert()).notifiedAt).not.toBeNull();
    expect((await linkedAlert()).notifiedAt).toBeNull();
    await accessRun();
    await accessRun();
    expect(messagesTo(chat.id).slice(before)).toEqual([
      expect.objectContaining({ text: expect.stringContaining('"Site form" no longer gets leads') }),
    ]);
    expect((await linkedAlert()).notifiedAt).not.toBeNull();
    expect(mailTo(linked.user.login)).toHaveLength(1);
  });

  it('with no chat linked, counts the broken mail as told and sends nothing', async () => {
    const { user, accountId } = await owner('en');
    const source = await refusedSource(accountId);
    const before = tg.messages.length;
    await accessRun();
    expect(tg.messages.length).toBe(before);
    expect(mailTo(user.login)).toHaveLength(0);
    const [alert] = await t.app.db.select().from(guardianAlerts).where(eq(guardianAlerts.integrationId, source.id));
    expect(alert).toMatchObject({ kind: 'access', closedAt: null });
    expect(alert!.notifiedAt).not.toBeNull();
  });
});
