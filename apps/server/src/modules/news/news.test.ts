import { and, desc, eq } from 'drizzle-orm';
import { DateTime } from 'luxon';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, posts } from '../../db/schema';
import {
  bearer,
  callAs,
  createTestApp,
  errorOf,
  expectError,
  type SignedInUser,
  signUp,
  signUpStaff,
  type TestApp,
} from '../../test/test-app';
import { addView, postAnalytics } from './news.service';

let t: TestApp;
let client: SignedInUser;
let admin: SignedInUser;
let png: Buffer;
beforeAll(async () => {
  t = await createTestApp();
  client = await signUp(t);
  admin = await signUpStaff(t);
  png = await sharp({ create: { width: 2400, height: 1200, channels: 3, background: '#4f46e5' } })
    .png()
    .toBuffer();
});
afterAll(() => t.close());

const base = '/api/legacy/api/post';
const MISSING = '00000000-0000-4000-8000-000000000000';

interface FilePart {
  name: string;
  filename: string;
  type: string;
  bytes: Buffer;
}

function form(fields: Record<string, string>, file?: FilePart) {
  const boundary = '----lr-news-boundary';
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  if (file) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.name}"; filename="${file.filename}"\r\nContent-Type: ${file.type}\r\n\r\n`,
      ),
      file.bytes,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const image = (bytes: Buffer, filename = 'cover.png'): FilePart => ({
  name: 'image',
  filename,
  type: 'image/png',
  bytes,
});

function create(user: SignedInUser | null, fields: Record<string, string>, file?: FilePart) {
  const body = form(fields, file);
  return t.app.inject({
    method: 'POST',
    url: `${base}/admin`,
    payload: body.payload,
    headers: { ...body.headers, ...(user ? bearer(user.accessToken) : {}) },
  });
}

async function publish(
  title = 'Нова інтеграція з Uspacy',
  text = '<p>Тепер ліди йдуть <strong>в Uspacy</strong>.</p>',
) {
  const res = await create(admin, { title, text }, image(png));
  expect(res.statusCode).toBe(201);
  return res.json() as { _id: string; title: string; text: string; image: string; views: number };
}

describe('publishing a post', () => {
  it('stores title, sanitised text and a resized JPEG image that anyone can fetch', async () => {
    const post = await publish();
    expect(post).toMatchObject({ title: 'Нова інтеграція з Uspacy', views: 0 });
    expect(post.image).toMatch(new RegExp(`^${base}/image/${post._id}\\?v=`));
    const img = await t.app.inject({ method: 'GET', url: post.image });
    expect(img.statusCode).toBe(200);
    expect(img.headers['content-type']).toBe('image/jpeg');
    const meta = await sharp(img.rawPayload).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 1600, 800]);
  });

  it('strips scripts, event handlers and javascript: links from the text', async () => {
    const post = await publish(
      'XSS',
      '<p onclick="steal()">Hi<script>alert(1)</script><img src=x onerror="alert(2)"></p><a href="javascript:alert(3)">x</a><a href="https://example.com">ok</a>',
    );
    expect(post.text).not.toMatch(/script|onerror|onclick|javascript:|<img/i);
    expect(post.text).toContain('<p>Hi</p>');
    expect(post.text).toContain(
      '<a href="https://example.com" target="_blank" rel="noopener noreferrer nofollow">ok</a>',
    );
    const [row] = await t.app.db.select({ text: posts.text }).from(posts).where(eq(posts.id, post._id));
    expect(row?.text).toBe(post.text);
  });

  it('requires title, text and an image, and names each missing field', async () => {
    const res = await create(admin, { title: ' ' });
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).errors).toEqual([
      { field: 'title', code: 'REQUIRED' },
      { field: 'text', code: 'REQUIRED' },
      { field: 'image', code: 'IMAGE_REQUIRED' },
    ]);
    expectError(await create(admin, { title: 'T', text: '<p>x</p>' }), 400, 'IMAGE_REQUIRED');
    // Markup with nothing left after sanitising is no text.
    expectError(await create(admin, { title: 'T', text: '<script>alert(1)</script>' }, image(png)), 400, 'REQUIRED');
  });

  it('refuses a file that is not an image by its bytes, whatever its name and declared type', async () => {
    const res = await create(
      admin,
      { title: 'T', text: '<p>x</p>' },
      image(Buffer.from('just some text, not a picture'), 'photo.png'),
    );
    expectError(res, 400, 'IMAGE_INVALID');
    expect(errorOf(res).errors).toEqual([{ field: 'image', code: 'IMAGE_INVALID' }]);
    // A PNG header followed by garbage is not an image either.
    const broken = Buffer.concat([png.subarray(0, 40), Buffer.alloc(200, 7)]);
    expectError(await create(admin, { title: 'T', text: '<p>x</p>' }, image(broken)), 400, 'IMAGE_INVALID');
    expect(await t.app.db.$count(posts, eq(posts.title, 'T'))).toBe(0);
  });

  it('refuses an image over 10 MB and a second file, never with a 500', async () => {
    const big = Buffer.concat([png, Buffer.alloc(10 * 1024 * 1024 + 1, 0)]);
    const res = await create(admin, { title: 'Big', text: '<p>x</p>' }, image(big));
    expectError(res, 413, 'IMAGE_TOO_LARGE');
    expect(errorOf(res).errors).toEqual([{ field: 'image', code: 'IMAGE_TOO_LARGE' }]);
    // A giant picture (more pixels than allowed) is refused when decoded, not stored.
    const huge = await sharp({ create: { width: 10_000, height: 10_000, channels: 3, background: '#fff' } })
      .png({ compressionLevel: 9 })
      .toBuffer();
    expectError(await create(admin, { title: 'Big', text: '<p>x</p>' }, image(huge)), 400, 'IMAGE_INVALID');
    // JSON instead of a form: the image is missing.
    const json = await callAs(t, 'POST', `${base}/admin`, admin, { title: 'Big', text: '<p>x</p>' });
    expectError(json, 400, 'IMAGE_REQUIRED');
    expect(await t.app.db.$count(posts, eq(posts.title, 'Big'))).toBe(0);
  });

  it('is for staff only: a client gets 403, anonymous 401, and nothing is stored', async () => {
    expectError(await create(client, { title: 'Client', text: '<p>x</p>' }, image(png)), 403, 'FORBIDDEN');
    expectError(await create(null, { title: 'Anon', text: '<p>x</p>' }, image(png)), 401, 'UNAUTHORIZED');
    for (const [method, url] of [
      ['GET', `${base}/admin`],
      ['GET', `${base}/admin/${MISSING}`],
      ['PUT', `${base}/admin/${MISSING}`],
      ['DELETE', `${base}/admin/${MISSING}`],
      ['GET', `${base}/admin/get/analytics`],
    ] as const) {
      expectError(
        await callAs(t, method, url, client, method === 'PUT' ? { text: '<p>x</p>' } : undefined),
        403,
        'FORBIDDEN',
      );
      expectError(
        await callAs(t, method, url, null, method === 'PUT' ? { text: '<p>x</p>' } : undefined),
        401,
        'UNAUTHORIZED',
      );
    }
    expect(await t.app.db.$count(posts, eq(posts.title, 'Client'))).toBe(0);
  });

  it('records create, update and delete in the audit log', async () => {
    const post = await publish('Audited');
    const upd = await callAs(t, 'PUT', `${base}/admin/${post._id}`, admin, {
      text: '<p>New <b>text</b><script>x</script></p>',
    });
    expect(upd.statusCode).toBe(200);
    expect(upd.json().text).toBe('<p>New <b>text</b></p>');
    expect((await callAs(t, 'DELETE', `${base}/admin/${post._id}`, admin)).statusCode).toBe(200);
    const entries = await t.app.db
      .select({ action: auditLog.action, label: auditLog.targetLabel, actor: auditLog.actorLogin })
      .from(auditLog)
      .where(and(eq(auditLog.targetType, 'post'), eq(auditLog.targetId, post._id)));
    expect(entries.map((e) => e.action).sort()).toEqual(['post.create', 'post.delete', 'post.update']);
    expect(entries.every((e) => e.label === 'Audited' && e.actor === admin.login)).toBe(true);
    expectError(await callAs(t, 'GET', `${base}/${post._id}`, null), 404, 'POST_NOT_FOUND');
    expectError(await callAs(t, 'DELETE', `${base}/admin/${post._id}`, admin), 404, 'POST_NOT_FOUND');
    expectError(await callAs(t, 'PUT', `${base}/admin/not-a-uuid`, admin, { text: '<p>x</p>' }), 404, 'POST_NOT_FOUND');
    expectError(await callAs(t, 'PUT', `${base}/admin/${MISSING}`, admin, {}), 400, 'REQUIRED');
  });
});

describe('a post in two languages', () => {
  const put = (id: string, payload: object) => callAs(t, 'PUT', `${base}/admin/${id}`, admin, payload);

  it('keeps an English version beside the Ukrainian one; readers get both, sanitised', async () => {
    const res = await create(
      admin,
      {
        title: 'Нова інтеграція',
        text: '<p>Ліди йдуть в Uspacy.</p>',
        titleEn: 'A new integration',
        textEn: '<p>Leads go to Uspacy.</p><script>alert(1)</script>',
      },
      image(png),
    );
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json()._id as string;
    const read = (await t.app.inject({ method: 'GET', url: `${base}/${id}` })).json();
    expect(read).toMatchObject({
      title: 'Нова інтеграція',
      text: '<p>Ліди йдуть в Uspacy.</p>',
      en: { title: 'A new integration', text: '<p>Leads go to Uspacy.</p>' },
    });
    const list = (await t.app.inject({ method: 'GET', url: base, query: { limit: '100' } })).json();
    expect(list.data.find((p: { _id: string }) => p._id === id).en.title).toBe('A new integration');
    // Staff's views table names it in both languages too.
    const stats = await callAs(t, 'GET', `${base}/admin/get/analytics?days=7&postId=${id}`, admin);
    expect(stats.json().posts[0]).toMatchObject({ title: 'Нова інтеграція', titleEn: 'A new integration' });
  });

  it('a post written in Ukrainian only says so: en is null', async () => {
    const post = await publish();
    expect((await t.app.inject({ method: 'GET', url: `${base}/${post._id}` })).json().en).toBeNull();
  });

  it('adds, changes and removes the English version; other fields stay', async () => {
    const post = await publish();
    const added = await put(post._id, { text: post.text, titleEn: 'In English', textEn: '<p>Hello</p>' });
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json()).toMatchObject({ title: post.title, en: { title: 'In English', text: '<p>Hello</p>' } });
    // Neither English field: the English version is left as it is.
    const kept = await put(post._id, { text: '<p>Інший текст</p>' });
    expect(kept.json()).toMatchObject({ text: '<p>Інший текст</p>', en: { title: 'In English' } });
    const removed = await put(post._id, { text: '<p>Інший текст</p>', titleEn: null, textEn: null });
    expect(removed.json().en).toBeNull();
    const [audit] = await t.app.db
      .select({ details: auditLog.details })
      .from(auditLog)
      .where(and(eq(auditLog.action, 'post.update'), eq(auditLog.targetId, post._id)))
      .orderBy(desc(auditLog.createdAt))
      .limit(1);
    expect(audit?.details).toMatchObject({ english: 'removed' });
  });

  it('refuses half an English version, naming the missing field, on create and on update', async () => {
    const half = await create(admin, { title: 'Т', text: '<p>т</p>', titleEn: 'Only a title' }, image(png));
    expect(half.statusCode).toBe(400);
    expect(errorOf(half).errors).toEqual([{ field: 'textEn', code: 'REQUIRED' }]);
    // English text that is markup only is no text.
    const empty = await create(
      admin,
      { title: 'Т', text: '<p>т</p>', titleEn: 'Title', textEn: '<script>x</script>' },
      image(png),
    );
    expect(errorOf(empty)).toMatchObject({ statusCode: 400, errors: [{ field: 'textEn', code: 'REQUIRED' }] });
    const post = await publish();
    const res = await put(post._id, { text: post.text, textEn: '<p>Text</p>' });
    expect(errorOf(res)).toMatchObject({ statusCode: 400, errors: [{ field: 'titleEn', code: 'REQUIRED' }] });
    const blank = await put(post._id, { text: post.text, titleEn: ' ', textEn: '<p>Text</p>' });
    expect(errorOf(blank)).toMatchObject({ statusCode: 400, errors: [{ field: 'titleEn', code: 'REQUIRED' }] });
    expect((await t.app.inject({ method: 'GET', url: `${base}/${post._id}` })).json().en).toBeNull();
  });
});

describe('reading posts', () => {
  it('lists posts newest first to everyone, and one post by id', async () => {
    const older = await publish('Older');
    const newer = await publish('Newer');
    const list = await callAs(t, 'GET', `${base}?page=1&limit=2`, null);
    expect(list.statusCode).toBe(200);
    expect(list.json().data.map((p: { _id: string }) => p._id)).toEqual([newer._id, older._id]);
    expect(list.json().total).toBeGreaterThanOrEqual(2);
    const admins = await callAs(t, 'GET', `${base}/admin?page=1&limit=2`, admin);
    expect(admins.json().data[0]._id).toBe(newer._id);
    const one = await callAs(t, 'GET', `${base}/${older._id}`, null);
    expect(one.json()).toMatchObject({ _id: older._id, title: 'Older' });
    expect((await callAs(t, 'GET', `${base}/admin/${older._id}`, admin)).json().title).toBe('Older');
    expectError(await callAs(t, 'GET', `${base}/${MISSING}`, null), 404, 'POST_NOT_FOUND');
    expectError(await callAs(t, 'GET', `${base}?limit=1000`, null), 400, 'VALIDATION_ERROR');
  });

  it('counts a view once per visitor and day, and shows staff the views per day', async () => {
    const post = await publish('Viewed');
    const view = (headers: Record<string, string>) =>
      t.app.inject({ method: 'PUT', url: `${base}/add/view/${post._id}`, payload: { views: 999 }, headers });
    const first = await view({ 'user-agent': 'Browser A' });
    expect(first.json()).toEqual({ views: 1, counted: true });
    const cookie = first.cookies.find((c) => c.name === 'lr_visitor');
    expect(cookie?.httpOnly).toBe(true);
    // The same visitor again, with the cookie or without it (same address and browser): not counted.
    expect((await view({ 'user-agent': 'Browser A', cookie: `lr_visitor=${cookie?.value}` })).json()).toEqual({
      views: 1,
      counted: false,
    });
    expect((await view({ 'user-agent': 'Browser A' })).json().views).toBe(1);
    // Another visitor counts.
    expect((await view({ 'user-agent': 'Browser B' })).json()).toEqual({ views: 2, counted: true });
    expectError(
      await t.app.inject({ method: 'PUT', url: `${base}/add/view/${MISSING}`, payload: {} }),
      404,
      'POST_NOT_FOUND',
    );

    const stats = await callAs(t, 'GET', `${base}/admin/get/analytics?days=7&postId=${post._id}`, admin);
    expect(stats.statusCode).toBe(200);
    const body = stats.json();
    expect(body.days).toHaveLength(7);
    // Today is Kyiv's (the platform's zone), not UTC's.
    expect(body.days[6]).toBe(DateTime.now().setZone('Europe/Kyiv').toISODate());
    expect(body.posts).toEqual([
      { _id: post._id, title: 'Viewed', titleEn: null, views: 2, perDay: [0, 0, 0, 0, 0, 0, 2] },
    ]);
  });

  it('counts a view at 00:30 Kyiv time on that Kyiv day, not on the UTC day before', async () => {
    const post = await publish('Read after midnight');
    // 00:30 in Kyiv on 28 November is 22:30 UTC on the 27th.
    const at = new Date('2026-11-27T22:30:00Z');
    expect(await addView(t.app.db, post._id, 'night-reader-0001', at)).toEqual({ views: 1, counted: true });
    const stats = await postAnalytics(t.app.db, { days: 2, postId: post._id }, new Date('2026-11-28T10:00:00Z'));
    expect(stats.days).toEqual(['2026-11-27', '2026-11-28']);
    expect(stats.posts[0]?.perDay).toEqual([0, 1]);
  });
});
