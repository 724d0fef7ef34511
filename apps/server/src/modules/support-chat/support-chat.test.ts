import { afterEach, describe, expect, it } from 'vitest';
import { loadEnv } from '../../app-modules';
import { createTestApp, type TestApp } from '../../test/test-app';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('support chat settings', () => {
  it('are null (no chat) when no script address is set', async () => {
    t = await createTestApp();
    const res = await t.app.inject({ method: 'GET', url: '/api/support-chat' });
    expect([res.statusCode, res.json()]).toEqual([200, null]);
  });

  it('give anyone the script address, organization and when to load it', async () => {
    const chat = { scriptUrl: 'https://chat.example/widget.js', organization: 'org-42', loadImmediately: true };
    t = await createTestApp({ supportChat: chat });
    const res = await t.app.inject({ method: 'GET', url: '/api/support-chat' });
    expect(res.json()).toEqual(chat);
  });

  it('come from SUPPORT_CHAT_* settings, and a bad address stops the start', () => {
    expect(
      loadEnv({ SUPPORT_CHAT_SCRIPT_URL: 'https://chat.example/w.js', SUPPORT_CHAT_ORGANIZATION: 'o' }).supportChat,
    ).toEqual({
      scriptUrl: 'https://chat.example/w.js',
      organization: 'o',
      loadImmediately: false,
    });
    expect(loadEnv({}).supportChat).toBeNull();
    expect(() => loadEnv({ SUPPORT_CHAT_SCRIPT_URL: 'not a url' })).toThrow();
  });
});
