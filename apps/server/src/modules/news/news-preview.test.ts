import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, signUpStaff, type TestApp } from '../../test/test-app';

// Link previews: crawlers run no JavaScript, so /news/{id} must carry its Open Graph tags in the HTML.
let t: TestApp;
let dist: string;
let postId: string;
beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), 'lr-web-'));
  writeFileSync(join(dist, 'index.html'), '<html><head><title>LeadRelay</title></head><body></body></html>');
  t = await createTestApp({ webDist: dist, publicUrl: 'https://leads.example' });
  const admin = await signUpStaff(t);
  const png = await sharp({ create: { width: 40, height: 20, channels: 3, background: '#000' } })
    .png()
    .toBuffer();
  const boundary = 'b0undary';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nЗнижки "до" <кінця> місяця\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="text"\r\n\r\n<p>Перший абзац & <b>деталі</b>.</p>\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="titleEn"\r\n\r\nSale to the month's end\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="textEn"\r\n\r\n<p>First paragraph.</p><p>Second.</p>\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`,
    ),
    png,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/legacy/api/post/admin',
    payload,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, ...bearer(admin.accessToken) },
  });
  postId = res.json()._id;
});
afterAll(async () => {
  await t.close();
  rmSync(dist, { recursive: true, force: true });
});

describe('link previews of a post', () => {
  it('an English link shows the English version', async () => {
    const html = (await t.app.inject({ method: 'GET', url: `/en/news/${postId}` })).body;
    expect(html).toContain('<meta property="og:title" content="Sale to the month&#39;s end" />');
    expect(html).toContain('<meta property="og:description" content="First paragraph. Second." />');
  });

  it.each([''])('puts the title, description and image into the HTML of %s/news/{id}', async (prefix) => {
    const res = await t.app.inject({ method: 'GET', url: `${prefix}/news/${postId}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    const html = res.body;
    expect(html).toContain('<title>Знижки &quot;до&quot; &lt;кінця&gt; місяця</title>');
    expect(html).toContain('<meta property="og:title" content="Знижки &quot;до&quot; &lt;кінця&gt; місяця" />');
    expect(html).toContain('<meta property="og:description" content="Перший абзац &amp; деталі." />');
    expect(html).toMatch(
      new RegExp(
        `<meta property="og:image" content="https://leads.example/api/legacy/api/post/image/${postId}\\?v=\\w+" />`,
      ),
    );
    expect(html).toContain(`<meta property="og:url" content="https://leads.example${prefix}/news/${postId}" />`);
  });

  it('serves the plain page for an unknown post and for the list', async () => {
    for (const url of ['/news/00000000-0000-4000-8000-000000000000', '/news/nope', '/news']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('<title>LeadRelay</title>');
      expect(res.body).not.toContain('og:title');
    }
  });
});
