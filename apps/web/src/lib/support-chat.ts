// The embedded customer-support chat (spec 1, 3, 9): a third-party script whose address and
// organization the server's settings give (GET /api/support-chat; null: no chat at all). It loads
// at once (loadImmediately) or at the visitor's first interaction, so it costs nothing until then.
import type { SupportChat } from '@leadrelay/shared';
import { api } from './http';
import { readLangCookie } from './locale';

export type ChatLanguage = 'uk' | 'en';
const SCRIPT_ID = 'lr-support-chat';
const INTERACTIONS = ['pointerdown', 'keydown', 'touchstart', 'scroll'] as const;

declare global {
  interface Window {
    /** Read by the chat script: who we are to the chat provider and in which language to talk. */
    supportChatSettings?: { organization: string; lang: ChatLanguage };
  }
}

/** Spec 9: the `lang` cookie, else Ukrainian for a uk-UA browser, else English. */
export function chatLanguage(cookie: ChatLanguage | undefined, browserLanguage: string | undefined): ChatLanguage {
  if (cookie) return cookie;
  return browserLanguage?.toLowerCase() === 'uk-ua' ? 'uk' : 'en';
}

/** Adds the chat's script once; a second call does nothing. */
export function injectChat(chat: NonNullable<SupportChat>, lang: ChatLanguage, doc: Document = document): void {
  if (doc.getElementById(SCRIPT_ID)) return;
  window.supportChatSettings = { organization: chat.organization, lang };
  const script = doc.createElement('script');
  script.id = SCRIPT_ID;
  script.src = chat.scriptUrl;
  script.async = true;
  script.dataset.organization = chat.organization;
  script.dataset.lang = lang;
  doc.body.appendChild(script);
}

/** Loads the chat now or at the first interaction; returns a function that cancels the wait. */
export function scheduleChat(chat: NonNullable<SupportChat>, lang: ChatLanguage, target: Window = window): () => void {
  if (chat.loadImmediately) {
    injectChat(chat, lang, target.document);
    return () => {};
  }
  const load = () => {
    cancel();
    injectChat(chat, lang, target.document);
  };
  const cancel = () => {
    for (const event of INTERACTIONS) target.removeEventListener(event, load, true);
  };
  for (const event of INTERACTIONS) target.addEventListener(event, load, { capture: true, passive: true });
  return cancel;
}

/** At start-up: asks the server whether there is a chat, then schedules it. Failures only log. */
export async function startSupportChat(pathname = window.location.pathname): Promise<void> {
  // A widget page lives inside a CRM's frame: no chat of ours there.
  if (/^(\/en)?\/widgets\//.test(pathname)) return;
  // The visitor's language as they arrive: read before the answer below, because the page itself
  // then sets the cookie to its own language (locale-root), and which came first was a race.
  const lang = chatLanguage(readLangCookie(), navigator.language);
  try {
    const chat = await api.get<SupportChat>('/api/support-chat');
    if (!chat) return;
    scheduleChat(chat, lang);
  } catch (err) {
    console.warn('support chat settings failed', err);
  }
}
