import { afterEach, describe, expect, it, vi } from 'vitest';
import { api } from './http';
import { chatLanguage, injectChat, scheduleChat, startSupportChat } from './support-chat';

const chat = { scriptUrl: 'https://chat.example/widget.js', organization: 'org-7', loadImmediately: false };
const chatScripts = () => document.querySelectorAll('script#lr-support-chat');

afterEach(() => {
  for (const s of chatScripts()) s.remove();
  delete window.supportChatSettings;
});

describe('support chat language', () => {
  it('takes the lang cookie first, then Ukrainian for a uk-UA browser, else English', () => {
    expect(chatLanguage('en', 'uk-UA')).toBe('en');
    expect(chatLanguage('uk', 'en-US')).toBe('uk');
    expect(chatLanguage(undefined, 'uk-UA')).toBe('uk');
    expect(chatLanguage(undefined, 'en-GB')).toBe('en');
    expect(chatLanguage(undefined, 'pl-PL')).toBe('en');
    expect(chatLanguage(undefined, undefined)).toBe('en');
  });
});

describe('support chat at start-up', () => {
  it('talks in the language the visitor arrived with, though the page sets its own while the settings load', async () => {
    document.cookie = 'lang=en; path=/';
    let answer: (value: unknown) => void = () => {};
    const get = vi.spyOn(api, 'get').mockReturnValue(new Promise((resolve) => (answer = resolve)) as never);
    const started = startSupportChat('/news');
    // The Ukrainian page remembers its language before the server answers.
    document.cookie = 'lang=uk; path=/';
    answer({ ...chat, loadImmediately: true });
    await started;
    expect(window.supportChatSettings).toEqual({ organization: 'org-7', lang: 'en' });
    get.mockRestore();
    document.cookie = 'lang=; path=/; max-age=0';
  });
});

describe('support chat loader', () => {
  it('adds the script once, with the organization and language', () => {
    injectChat(chat, 'uk');
    injectChat(chat, 'uk');
    expect(chatScripts()).toHaveLength(1);
    const script = chatScripts()[0] as HTMLScriptElement;
    expect([script.src, script.dataset.organization, script.dataset.lang]).toEqual([chat.scriptUrl, 'org-7', 'uk']);
    expect(window.supportChatSettings).toEqual({ organization: 'org-7', lang: 'uk' });
  });

  it('loads at once when loadImmediately is set', () => {
    scheduleChat({ ...chat, loadImmediately: true }, 'en');
    expect(chatScripts()).toHaveLength(1);
  });

  it('otherwise waits for the first interaction', () => {
    scheduleChat(chat, 'en');
    expect(chatScripts()).toHaveLength(0);
    window.dispatchEvent(new Event('keydown'));
    expect(chatScripts()).toHaveLength(1);
    window.dispatchEvent(new Event('pointerdown'));
    expect(chatScripts()).toHaveLength(1);
  });

  it('loads nothing when the wait is cancelled (the page went away)', () => {
    const cancel = scheduleChat(chat, 'en');
    cancel();
    window.dispatchEvent(new Event('pointerdown'));
    expect(chatScripts()).toHaveLength(0);
  });
});
