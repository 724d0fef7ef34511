// Parsers through their API (every call, every role) and through our SMTP listener with mail sent
// by nodemailer as a mail server would: a mail becomes one lead, and bad mail gets a reason.
import { readFileSync } from 'node:fs';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { integrations, parserMails } from '../../db/schema';
import {
  createParser,
  leadsOf,
  MAIL_DOMAIN,
  mailsOf,
  type ParsersTest,
  sendMail,
  startParsersTest,
} from '../../test/parsers-kit';
import { accountIdOf, createDestination } from '../../test/routing-fixtures';
import { callAs, expectError } from '../../test/test-app';
import { processPending } from './parser-mails';
import { PARSER_SWEEP_TASK } from './parsers.runtime';

const fixture = (name: string) => readFileSync(new URL(`../../../fixtures/parsers/${name}`, import.meta.url));
const base = '/api/legacy/api/admin/parser';
const admin = '/api/admin/parser';

let p: ParsersTest;
beforeAll(async () => {
  p = await startParsersTest();
});
afterAll(() => p?.close());

/** Waits for the mails handed over by the listener to be processed. */
const settled = () => p.t.app.parsers.drain();

describe('who may call the parser API', () => {
  it('anonymous gets 401 and a client 403 on every management call; the staff member gets answers', async () => {
    const { _id } = await createParser(p);
    const calls: [Parameters<typeof callAs>[1], string, unknown?][] = [
      ['GET', base],
      ['GET', `${base}/integrations`],
      ['GET', `${base}/destinations`],
      ['POST', base, { name: 'x' }],
      ['GET', `${admin}/${_id}`],
      ['PUT', `${admin}/${_id}`, { name: 'y' }],
      ['PUT', `${admin}/${_id}/config`, { sample: 'x' }],
      ['DELETE', `${admin}/${_id}`],
      ['GET', `${admin}/${_id}/mails`],
      ['POST', `${admin}/${_id}/preview`, { sample: 'Телефон: 1' }],
      ['POST', `${admin}/${_id}/poll`, {}],
      ['POST', `${admin}/${_id}/mails/00000000-0000-4000-8000-000000000000/retry`, {}],
    ];
    for (const [method, url, body] of calls) {
      expectError(await callAs(p.t, method, url, null, body), 401, 'UNAUTHORIZED');
      expectError(await callAs(p.t, method, url, p.client, body), 403, 'FORBIDDEN');
    }
    expect((await callAs(p.t, 'GET', `${admin}/${_id}`, p.staff)).statusCode).toBe(200);
  });

  it('another staff account’s parser answers 404, and the integrations API does not create parsers', async () => {
    const other = await startOtherStaff();
    const { _id } = await createParser(p);
    expectError(await callAs(p.t, 'GET', `${admin}/${_id}`, other), 404, 'PARSER_NOT_FOUND');
    expectError(await callAs(p.t, 'PUT', `${admin}/${_id}/config`, other, { sample: 'x' }), 404, 'PARSER_NOT_FOUND');
    expectError(await callAs(p.t, 'DELETE', `${admin}/${_id}`, other), 404, 'PARSER_NOT_FOUND');
    expectError(await callAs(p.t, 'GET', `${admin}/not-a-uuid`, p.staff), 404, 'PARSER_NOT_FOUND');
    expectError(
      await callAs(p.t, 'POST', '/api/integrations', p.staff, { type: 'parser', name: 'x' }),
      400,
      'INTEGRATION_TYPE_UNKNOWN',
    );
  });
});

async function startOtherStaff() {
  const { signUp } = await import('../../test/test-app');
  const { users } = await import('../../db/schema');
  const other = await signUp(p.t);
  await p.t.app.db.update(users).set({ role: 'support' }).where(eq(users.login, other.login));
  return other;
}

describe('managing a parser', () => {
  it('creates one with its own address, lists it, and offers the account’s destinations and parsers', async () => {
    const accountId = await accountIdOf(p.t.app.db, p.staff.login);
    const crm = await createDestination(p.t.app.db, accountId, { type: 'http', name: 'Мій CRM' });
    const created = await createParser(p, { name: 'Rozetka', destination: [crm] });
    expect(created.address).toMatch(new RegExp(`^p-[0-9a-f]{32}@${MAIL_DOMAIN.replace('.', '\\.')}$`));
    expect(created).toMatchObject({
      type: 'parser',
      active: true,
      destination: [{ _id: crm }],
      lastMail: null,
      imap: null,
    });

    const list = (await callAs(p.t, 'GET', `${base}?search=rozet`, p.staff)).json();
    expect(list.data.map((x: { _id: string }) => x._id)).toEqual([created._id]);
    const sources = (await callAs(p.t, 'GET', `${base}/integrations`, p.staff)).json();
    expect(sources.data).toContainEqual({ _id: created._id, name: 'Rozetka', type: 'parser', active: true });
    const destinations = (await callAs(p.t, 'GET', `${base}/destinations?search=crm`, p.staff)).json();
    expect(destinations.data).toEqual([{ _id: crm, name: 'Мій CRM', type: 'http', active: true }]);
    // Nothing of another type, and no parser offers itself as a destination.
    expect((await callAs(p.t, 'GET', `${base}/destinations?type=parser`, p.staff)).json().data).toEqual([]);
  });

  it('updates the integration’s own fields with a body without id, and refuses one with it', async () => {
    const { _id } = await createParser(p);
    const res = await callAs(p.t, 'PUT', `${admin}/${_id}`, p.staff, {
      name: 'Форма з сайту',
      active: false,
      options: { filters: [{ field: 'phone', op: 'notEmpty' }] },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: 'Форма з сайту', active: false });
    expectError(await callAs(p.t, 'PUT', `${admin}/${_id}`, p.staff, { _id, name: 'x' }), 400, 'VALIDATION_ERROR');
    // The legacy prefix answers the same calls.
    expect((await callAs(p.t, 'GET', `${base}/${_id}`, p.staff)).json().name).toBe('Форма з сайту');
  });

  it('keeps rules, a sample and a mailbox whose password is sealed and never answered', async () => {
    const { _id } = await createParser(p);
    const res = await callAs(p.t, 'PUT', `${admin}/${_id}/config`, p.staff, {
      rules: { match: { from: 'prom.ua' }, fields: [{ kind: 'label', field: 'total', label: 'Сума' }] },
      sample: 'Сума: 100 грн',
      imap: { enabled: true, host: 'imap.example.com', login: 'shop@example.com', password: 'Пароль-123' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      rules: { match: { from: 'prom.ua' }, auto: true, fields: [{ kind: 'label', field: 'total', label: 'Сума' }] },
      sample: 'Сума: 100 грн',
      imap: {
        enabled: true,
        host: 'imap.example.com',
        port: 993,
        tls: true,
        mailbox: 'INBOX',
        afterRead: 'seen',
        hasPassword: true,
      },
    });
    expect(res.body).not.toContain('Пароль-123');
    const [row] = await p.t.app.db.select().from(integrations).where(eq(integrations.id, _id));
    expect(JSON.stringify(row!.auth)).not.toContain('Пароль');
    expect(row!.auth).toMatchObject({ v: 1 });
    // Without a password the stored one stays; null forgets the mailbox and its password.
    const kept = await callAs(p.t, 'PUT', `${admin}/${_id}/config`, p.staff, {
      imap: { enabled: false, host: 'imap.example.com', login: 'shop@example.com' },
    });
    expect(kept.json().imap).toMatchObject({ enabled: false, hasPassword: true });
    const dropped = await callAs(p.t, 'PUT', `${admin}/${_id}/config`, p.staff, { imap: null });
    expect(dropped.json().imap).toBeNull();
  });

  it('answers a rule that cannot work, or a mailbox with no password, with the field and its key', async () => {
    const { _id } = await createParser(p);
    const bad = await callAs(p.t, 'PUT', `${admin}/${_id}/config`, p.staff, {
      rules: { fields: [{ kind: 'regex', field: 'order', pattern: '(№' }] },
    });
    expectError(bad, 400, 'PARSER_REGEX_INVALID');
    expect(bad.json().errors).toContainEqual({ field: 'rules.fields.0.pattern', code: 'PARSER_REGEX_INVALID' });
    const host = await callAs(p.t, 'PUT', `${admin}/${_id}/config`, p.staff, {
      imap: { enabled: true, host: 'imap example', login: 'a', password: 'b' },
    });
    expect(host.json().errors).toContainEqual({ field: 'imap.host', code: 'PARSER_IMAP_HOST_INVALID' });
    const nopass = await callAs(p.t, 'PUT', `${admin}/${_id}/config`, p.staff, {
      imap: { enabled: true, host: 'imap.example.com', login: 'a' },
    });
    expect(nopass.json().errors).toEqual([{ field: 'imap.password', code: 'REQUIRED' }]);
    expectError(await callAs(p.t, 'POST', `${admin}/${_id}/poll`, p.staff, {}), 400, 'INTEGRATION_NOT_CONNECTED');
  });

  it('previews what a pasted mail yields under rules not yet saved, and asks for a sample when there is none', async () => {
    const { _id } = await createParser(p);
    const res = await callAs(p.t, 'POST', `${admin}/${_id}/preview`, p.staff, {
      sample: fixture('prom-order.eml').toString('utf8'),
      rules: {
        match: { from: 'prom.ua' },
        fields: [{ kind: 'regex', field: 'order_id', pattern: '№(\\d+)', source: 'subject' }],
      },
    });
    expect(res.json()).toMatchObject({
      from: '"Prom.ua" <no-reply@prom.ua>',
      subject: 'Нове замовлення №314159265 на Prom.ua',
      matched: true,
      reason: null,
      fields: { order_id: '314159265', name: 'Олена Петренко', phone: '+38 (067) 123-45-67' },
    });
    expect(res.json().pairs).toContainEqual({ label: 'Спосіб доставки', value: 'Нова Пошта, відділення №12, Київ' });
    const miss = await callAs(p.t, 'POST', `${admin}/${_id}/preview`, p.staff, {
      sample: 'Телефон: 1',
      rules: { match: { phrase: 'замовлення' } },
    });
    expect(miss.json()).toMatchObject({ matched: false, reason: 'MATCH_PHRASE' });
    expectError(await callAs(p.t, 'POST', `${admin}/${_id}/preview`, p.staff, {}), 400, 'PARSER_SAMPLE_MISSING');
  });

  it('deletes a parser with its mail log', async () => {
    const { _id, address } = await createParser(p);
    await sendMail(p.smtpPort, { to: address, subject: 'Заявка', text: 'Телефон: 0671112233' });
    await settled();
    expect((await callAs(p.t, 'DELETE', `${admin}/${_id}`, p.staff)).statusCode).toBe(204);
    expectError(await callAs(p.t, 'GET', `${admin}/${_id}`, p.staff), 404, 'PARSER_NOT_FOUND');
    expect(await mailsOf(p.t, _id)).toEqual([]);
    await expect(sendMail(p.smtpPort, { to: address, text: 'x' })).rejects.toMatchObject({ responseCode: 550 });
  });
});

describe('clearing the account', () => {
  it('removes its parsers with their mail log, and another account’s stay', async () => {
    const other = await startOtherStaff();
    const mine = await createParser(p);
    const res = await callAs(p.t, 'POST', base, other, { name: 'Чужий' });
    const theirs = res.json() as { _id: string; address: string };
    await sendMail(p.smtpPort, { to: mine.address, subject: 'Заявка', text: 'Телефон: 0671112233' });
    await sendMail(p.smtpPort, { to: theirs.address, subject: 'Заявка', text: 'Телефон: 0671112234' });
    await settled();
    const { PASSWORD } = await import('../../test/test-app');
    const cleared = await callAs(p.t, 'POST', '/api/account/clear-all-data', other, { password: PASSWORD });
    expect(cleared.statusCode).toBe(200);
    expect(await mailsOf(p.t, theirs._id)).toEqual([]);
    expectError(await callAs(p.t, 'GET', `${admin}/${theirs._id}`, other), 404, 'PARSER_NOT_FOUND');
    expect(await mailsOf(p.t, mine._id)).toHaveLength(1);
  });
});

describe('the public read', () => {
  it('tells anyone whether a parser takes mail and when the last came, and nothing else', async () => {
    const { _id, address } = await createParser(p);
    const before = await callAs(p.t, 'GET', `/api/ihome/parser/${_id}`, null);
    expect(before.json()).toEqual({ _id, active: true, lastMailAt: null });
    await sendMail(p.smtpPort, { to: address, subject: 'Заявка', text: 'Телефон: 0671112233' });
    await settled();
    const after = await callAs(p.t, 'GET', `/api/ihome/parser/${_id}`, null);
    expect(Object.keys(after.json()).sort()).toEqual(['_id', 'active', 'lastMailAt']);
    expect(after.json().lastMailAt).toEqual(expect.any(String));
    expect(after.body).not.toContain(address);
    expectError(
      await callAs(p.t, 'GET', '/api/ihome/parser/00000000-0000-4000-8000-000000000000', null),
      404,
      'PARSER_NOT_FOUND',
    );
    expectError(await callAs(p.t, 'GET', '/api/ihome/parser/x', null), 404, 'PARSER_NOT_FOUND');
  });
});

describe('mail sent to a parser address over SMTP', () => {
  it('becomes one lead with the fields of the rules, shown in the mail log; the same mail again is a duplicate', async () => {
    const parser = await createParser(p, {
      rules: {
        match: { from: 'prom.ua' },
        fields: [
          { kind: 'regex', field: 'order_id', pattern: '№\\s*(\\d+)', source: 'subject' },
          { kind: 'label', field: 'total', label: 'Сума' },
        ],
      },
    });
    const raw = fixture('prom-order.eml');
    const answer = await sendMail(p.smtpPort, { to: parser.address, from: 'no-reply@prom.ua', raw });
    expect(answer.response).toMatch(/^250 /);
    await settled();
    const leads = await leadsOf(p.t, parser._id);
    expect(leads).toHaveLength(1);
    expect(leads[0]!.fields).toMatchObject({
      name: 'Олена Петренко',
      phone: '+380671234567',
      email: 'olena.petrenko@example.com',
      comment: 'Зателефонуйте після 18:00, будь ласка',
      custom: { order_id: '314159265', total: '8 499 грн' },
    });
    expect(leads[0]!.sourceId).toBe('mail:<order-314159265@prom.ua>');

    // A copy forwarded again (same Message-ID) is logged as a duplicate, not a second lead.
    await sendMail(p.smtpPort, { to: parser.address, from: 'boss@example.com', raw });
    await settled();
    expect(await leadsOf(p.t, parser._id)).toHaveLength(1);
    const log = (await callAs(p.t, 'GET', `${admin}/${parser._id}/mails`, p.staff)).json();
    expect(log.total).toBe(2);
    expect(log.data.map((m: { status: string }) => m.status)).toEqual(['duplicate', 'lead']);
    expect(log.data[1]).toMatchObject({
      via: 'smtp',
      from: '"Prom.ua" <no-reply@prom.ua>',
      subject: 'Нове замовлення №314159265 на Prom.ua',
      messageId: '<order-314159265@prom.ua>',
      hookId: expect.any(String),
      fields: { order_id: '314159265' },
    });
    const shown = (await callAs(p.t, 'GET', `${admin}/${parser._id}`, p.staff)).json();
    expect(shown.lastMail).toMatchObject({ status: 'duplicate' });
    // The received mail can be previewed under other rules.
    const preview = await callAs(p.t, 'POST', `${admin}/${parser._id}/preview`, p.staff, {
      mailId: log.data[1]._id,
      rules: { auto: false, fields: [{ kind: 'label', field: 'delivery', label: 'Спосіб доставки' }] },
    });
    expect(preview.json().fields).toEqual({ delivery: 'Нова Пошта, відділення №12, Київ' });
  });

  it('in windows-1251 becomes a lead with the Ukrainian letters intact', async () => {
    const parser = await createParser(p);
    await sendMail(p.smtpPort, {
      to: parser.address,
      from: 'forms@site-builder.ua',
      raw: fixture('form-windows-1251.eml'),
    });
    await settled();
    const [lead] = await leadsOf(p.t, parser._id);
    expect(lead!.fields).toMatchObject({ name: 'Петро Ґудзь', phone: '+380677654321' });
  });

  it('that the rules do not take, or the filters drop, is logged with the reason, no lead', async () => {
    const parser = await createParser(p, { rules: { match: { from: 'rozetka.com.ua' } } });
    await sendMail(p.smtpPort, { to: parser.address, from: 'no-reply@prom.ua', raw: fixture('prom-order.eml') });
    const filtered = await createParser(p);
    await callAs(p.t, 'PUT', `${admin}/${filtered._id}`, p.staff, {
      options: { filters: [{ field: 'email', op: 'notEmpty' }] },
    });
    await sendMail(p.smtpPort, { to: filtered.address, subject: 'Заявка', text: 'Телефон: 0671112233' });
    const nothing = await createParser(p);
    await sendMail(p.smtpPort, { to: nothing.address, subject: 'Привіт', text: 'Просто лист без полів' });
    await settled();
    expect((await mailsOf(p.t, parser._id)).map((m) => [m.status, m.reason])).toEqual([['no_match', 'MATCH_FROM']]);
    expect((await mailsOf(p.t, filtered._id)).map((m) => m.status)).toEqual(['filtered']);
    expect((await mailsOf(p.t, filtered._id))[0]!.reason).toEqual(expect.any(String));
    expect((await mailsOf(p.t, nothing._id)).map((m) => [m.status, m.reason])).toEqual([
      ['no_match', 'MAIL_NO_FIELDS'],
    ]);
    expect(await leadsOf(p.t, parser._id)).toEqual([]);
  });
});

describe('bad mail', () => {
  it('to an unknown address, another domain or an inactive parser is refused with 550 and stored nowhere', async () => {
    const parser = await createParser(p);
    const before = await p.t.app.db.select({ id: parserMails.id }).from(parserMails);
    await expect(sendMail(p.smtpPort, { to: `p-deadbeefdeadbeef@${MAIL_DOMAIN}`, text: 'x' })).rejects.toMatchObject({
      responseCode: 550,
    });
    const [local] = parser.address.split('@');
    await expect(sendMail(p.smtpPort, { to: `${local}@evil.test`, text: 'x' })).rejects.toMatchObject({
      responseCode: 550,
    });
    await callAs(p.t, 'PUT', `${admin}/${parser._id}`, p.staff, { active: false });
    await expect(sendMail(p.smtpPort, { to: parser.address, text: 'x' })).rejects.toMatchObject({ responseCode: 550 });
    expect(await p.t.app.db.select({ id: parserMails.id }).from(parserMails)).toHaveLength(before.length);
  });

  it('over the size limit is refused with 552 and logged as too large', async () => {
    const parser = await createParser(p);
    await expect(
      sendMail(p.smtpPort, { to: parser.address, subject: 'Великий', text: `Телефон: 1\n${'x'.repeat(300_000)}` }),
    ).rejects.toMatchObject({ responseCode: 552 });
    expect((await mailsOf(p.t, parser._id)).map((m) => [m.status, m.reason, m.raw])).toEqual([
      ['rejected', 'MAIL_TOO_LARGE', null],
    ]);
  });

  it('that is no mail at all, or a nesting bomb, is refused and logged with its reason', async () => {
    const parser = await createParser(p);
    await expect(
      sendMail(p.smtpPort, { to: parser.address, raw: 'no headers here, only words\r\nТелефон: 1\r\n' }),
    ).rejects.toMatchObject({ responseCode: 550 });
    let body = 'Телефон: 1';
    for (let i = 0; i < 40; i++)
      body = `Content-Type: multipart/mixed; boundary="b${i}"\r\n\r\n--b${i}\r\n${body}\r\n--b${i}--`;
    await expect(
      sendMail(p.smtpPort, { to: parser.address, raw: `From: a@b.c\r\nSubject: bomb\r\n${body}\r\n` }),
    ).rejects.toMatchObject({ responseCode: 550 });
    expect((await mailsOf(p.t, parser._id)).map((m) => m.reason)).toEqual(['MAIL_MALFORMED', 'MAIL_TOO_DEEP']);
  });

  it('flooding one parser is refused with a temporary 451 past the allowance, logged once; other parsers go on', async () => {
    const flooded = await createParser(p);
    const other = await createParser(p);
    const results: string[] = [];
    for (let i = 0; i < 9; i++) {
      await sendMail(p.smtpPort, { to: flooded.address, subject: `Лист ${i}`, text: `Телефон: 067000000${i}` }).then(
        () => results.push('250'),
        (error: { responseCode?: number }) => results.push(String(error.responseCode)),
      );
    }
    expect(results).toEqual(['250', '250', '250', '250', '250', '250', '451', '451', '451']);
    await sendMail(p.smtpPort, { to: other.address, subject: 'Інший', text: 'Телефон: 0670000000' });
    await settled();
    const log = await mailsOf(p.t, flooded._id);
    expect(log.filter((m) => m.reason === 'MAIL_RATE_LIMITED')).toHaveLength(1);
    expect(await leadsOf(p.t, flooded._id)).toHaveLength(6);
    expect(await leadsOf(p.t, other._id)).toHaveLength(1);
  });
});

describe('an accepted mail', () => {
  it('left unprocessed by a process that died after the 250 is processed by the sweep, once', async () => {
    const parser = await createParser(p);
    const accountId = await accountIdOf(p.t.app.db, p.staff.login);
    // As the listener stores it before answering 250; the process dies before processing it.
    const raw = fixture('contact-form-en.eml');
    await p.t.app.db.insert(parserMails).values({
      integrationId: parser._id,
      accountId,
      via: 'smtp',
      mailFrom: 'wp@shop.example.com',
      size: raw.length,
      raw,
    });
    expect(await p.t.app.periodic.runNow(PARSER_SWEEP_TASK)).toBe('ran');
    expect(await p.t.app.periodic.runNow(PARSER_SWEEP_TASK)).toBe('ran');
    const leads = await leadsOf(p.t, parser._id);
    expect(leads).toHaveLength(1);
    expect(leads[0]!.fields).toMatchObject({ name: 'John Smith', email: 'john.smith@example.co.uk' });
    expect((await mailsOf(p.t, parser._id)).map((m) => m.status)).toEqual(['lead']);
  });
});

/** A raw mail with a text part and one attachment per Content-Disposition parameter list given. */
function mailWithAttachments(subject: string, dispositions: string[]): string {
  const parts = dispositions.map(
    (d) => `--b\r\nContent-Type: application/octet-stream\r\nContent-Disposition: attachment; ${d}\r\n\r\nxyz\r\n`,
  );
  return [
    'From: "Магазин" <orders@shop.example.com>',
    `Subject: ${subject}`,
    'Message-ID: <hostile-' + Math.random().toString(36).slice(2) + '@shop.example.com>',
    'MIME-Version: 1.0',
    'Content-Type: multipart/mixed; boundary="b"',
    '',
    '--b',
    'Content-Type: text/plain; charset=utf-8',
    '',
    "Ім'я: Олена",
    'Телефон: 0671112233',
    ...parts,
    '--b--',
    '',
  ].join('\r\n');
}

describe('an accepted mail with text PostgreSQL cannot store', () => {
  it('hostile attachment names and subject (NUL, half a UTF-16 pair, very long, path-like, empty) end as a lead, cleaned', async () => {
    const parser = await createParser(p);
    // 201 emoji after one letter: a cut at 200 code units halves a pair.
    const long = encodeURIComponent(`x${'😀'.repeat(201)}.pdf`);
    const raw = mailWithAttachments('=?UTF-8?Q?=D0=97=D0=B0=D0=BC=00=D0=BE=D0=B2?= =?UTF-16BE?B?2AA=?=', [
      "filename*=utf-8''a%00b.pdf",
      'filename="=?UTF-16BE?B?2AA=?=.txt"',
      `filename*=utf-8''${long}`,
      "filename*=utf-8''..%2F..%2Fetc%2Fpasswd",
      'filename=""',
    ]);
    const answer = await sendMail(p.smtpPort, { to: parser.address, raw });
    expect(answer.response).toMatch(/^250 /);
    await settled();

    const log = (await callAs(p.t, 'GET', `${admin}/${parser._id}/mails`, p.staff)).json();
    expect(log.data).toHaveLength(1);
    const [mail] = log.data;
    expect(mail).toMatchObject({ status: 'lead', reason: null, subject: 'Замов\ufffd' });
    const names: string[] = mail.attachments.map((a: { filename: string }) => a.filename);
    expect(names[0]).toBe('ab.pdf');
    expect(names[1]).toBe('\ufffd.txt');
    expect(names[2]).toHaveLength(200);
    expect(names[2]!.isWellFormed()).toBe(true);
    // A path is a name like any other: listed as sent, never used as a path.
    expect(names[3]).toBe('../../etc/passwd');
    expect(names).toHaveLength(5);
    const [lead] = await leadsOf(p.t, parser._id);
    expect(lead!.fields).toMatchObject({ name: 'Олена', phone: '+380671112233' });
    expect(JSON.stringify(mail)).not.toMatch(/\\u0000|\\ud800/);
  });
});

describe('a mail whose processing keeps failing', () => {
  // A fault of the database itself, on the real database: the hook of this parser's lead cannot be written.
  const breakHooks = (integrationId: string, sqlState: string) =>
    p.t.app.db.execute(
      sql.raw(`
        create or replace function fail_hook() returns trigger language plpgsql as $$
        begin
          if new.integration_id = '${integrationId}' then
            raise exception 'hooks are down for this test' using errcode = '${sqlState}';
          end if;
          return new;
        end $$;
        drop trigger if exists fail_hook on hooks;
        create trigger fail_hook before insert on hooks for each row execute function fail_hook();`),
    );
  const mendHooks = () => p.t.app.db.execute(sql.raw('drop trigger if exists fail_hook on hooks'));
  const minutes = (n: number) => new Date(Date.now() + n * 60_000);

  it('is tried a bounded number of times, then shown failed with the reason; "try again" makes the lead', async () => {
    const parser = await createParser(p);
    await breakHooks(parser._id, 'P0001');
    try {
      await sendMail(p.smtpPort, { to: parser.address, subject: 'Заявка', text: 'Телефон: 0671112299' });
      await settled();
      expect((await mailsOf(p.t, parser._id)).map((m) => [m.status, m.attempts])).toEqual([['received', 1]]);
      // The sweep takes it over each time its claim lapses (2 minutes).
      for (let i = 1; i <= 6; i++) await processPending(p.t.app.parsers.deps, minutes(3 * i));
      const log = (await callAs(p.t, 'GET', `${admin}/${parser._id}/mails`, p.staff)).json();
      expect(log.data[0]).toMatchObject({
        status: 'failed',
        reason: 'MAIL_PROCESSING_FAILED',
        attempts: 5,
        detail: expect.stringContaining('hooks are down for this test'),
      });
      expect(log.data[0].detail).not.toContain('insert into');
      // Failed is final: the sweep leaves it alone.
      await processPending(p.t.app.parsers.deps, minutes(60));
      expect((await mailsOf(p.t, parser._id))[0]).toMatchObject({ status: 'failed', attempts: 5 });

      // Still broken: one attempt, failed again at once with the reason.
      const mailId = log.data[0]._id as string;
      const again = await callAs(p.t, 'POST', `${admin}/${parser._id}/mails/${mailId}/retry`, p.staff, {});
      expect(again.statusCode, again.body).toBe(200);
      expect(again.json()).toMatchObject({ _id: mailId, status: 'failed', reason: 'MAIL_PROCESSING_FAILED' });
    } finally {
      await mendHooks();
    }
    const mailId = (await mailsOf(p.t, parser._id))[0]!.id;
    const retried = await callAs(p.t, 'POST', `${admin}/${parser._id}/mails/${mailId}/retry`, p.staff, {});
    expect(retried.json()).toMatchObject({ _id: mailId, status: 'lead', reason: null, detail: null });
    expect(await leadsOf(p.t, parser._id)).toHaveLength(1);
    // Only a failed mail is tried again.
    expectError(
      await callAs(p.t, 'POST', `${admin}/${parser._id}/mails/${mailId}/retry`, p.staff, {}),
      409,
      'PARSER_MAIL_NOT_FAILED',
    );
  });

  it('fails at once when the database refuses the data itself, and another account cannot retry it', async () => {
    const parser = await createParser(p);
    await breakHooks(parser._id, '22023');
    try {
      await sendMail(p.smtpPort, { to: parser.address, subject: 'Заявка', text: 'Телефон: 0671112298' });
      await settled();
    } finally {
      await mendHooks();
    }
    const [mail] = await mailsOf(p.t, parser._id);
    // What the mail says of itself stays shown beside the reason.
    expect(mail).toMatchObject({ status: 'failed', reason: 'MAIL_PROCESSING_FAILED', attempts: 1, subject: 'Заявка' });
    expect(mail!.detail).toContain('SQLSTATE 22023');

    const other = await startOtherStaff();
    const url = `${admin}/${parser._id}/mails/${mail!.id}/retry`;
    expectError(await callAs(p.t, 'POST', url, other, {}), 404, 'PARSER_NOT_FOUND');
    const theirs = (await callAs(p.t, 'POST', base, other, { name: 'Чужий' })).json() as { _id: string };
    expectError(
      await callAs(p.t, 'POST', `${admin}/${theirs._id}/mails/${mail!.id}/retry`, other, {}),
      404,
      'PARSER_MAIL_NOT_FOUND',
    );
    expectError(
      await callAs(p.t, 'POST', `${admin}/${parser._id}/mails/x/retry`, p.staff, {}),
      404,
      'PARSER_MAIL_NOT_FOUND',
    );
    expect((await mailsOf(p.t, parser._id))[0]!.status).toBe('failed');
  });
});
