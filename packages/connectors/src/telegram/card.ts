// The manager's card (issue 19): the lead in the manager's language as Telegram HTML, every value
// escaped, the phone a tel: link, and the two buttons whose callback_data names the lead. Pure text
// building, no HTTP (client.ts calls Telegram).
import type { Lead } from '@leadrelay/shared';

export type CardLanguage = 'uk' | 'en';
export type CardAction = 't' | 'c';

/** Telegram's limit on a button's callback_data, in bytes. */
export const CALLBACK_DATA_MAX_BYTES = 64;

const WORDS = {
  uk: {
    title: 'Новий лід',
    name: 'Ім’я',
    phone: 'Телефон',
    email: 'E-mail',
    source: 'Джерело',
    comment: 'Коментар',
    answers: 'Відповіді форми',
    open: 'Відкрити в LeadRelay',
    take: 'Беру',
    called: 'Передзвонив',
    takenBy: 'Взяв',
    calledBy: 'Передзвонив',
    passedTo: 'Передано далі',
  },
  en: {
    title: 'New lead',
    name: 'Name',
    phone: 'Phone',
    email: 'E-mail',
    source: 'Source',
    comment: 'Comment',
    answers: 'Form answers',
    open: 'Open in LeadRelay',
    take: 'Take it',
    called: 'Called back',
    takenBy: 'Taken by',
    calledBy: 'Called back by',
    passedTo: 'Passed on',
  },
} as const;

/** What Telegram's HTML parse mode needs escaped in text and attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

export function callbackData(action: CardAction, leadId: string): string {
  const data = `${action}:${leadId}`;
  // A uuid makes 38 bytes; anything longer would be refused by Telegram (BUTTON_DATA_INVALID).
  if (Buffer.byteLength(data) > CALLBACK_DATA_MAX_BYTES) throw new Error(`callback_data over 64 bytes: ${data}`);
  return data;
}

/** `t:<leadId>` or `c:<leadId>`, or null for anything else. */
export function parseCallbackData(data: string | undefined): { action: CardAction; leadId: string } | null {
  const m = /^([tc]):([0-9a-f-]{36})$/i.exec(data ?? '');
  // Lower-cased: the action indexes the reaction kinds (`T` is no kind of ours).
  return m ? { action: m[1]!.toLowerCase() as CardAction, leadId: m[2]!.toLowerCase() } : null;
}

export interface CardInput {
  lead: Lead;
  leadId: string;
  sourceName: string;
  /** The lead in the LeadRelay web app. */
  leadUrl: string;
  language: CardLanguage;
}

const line = (label: string, value: string | undefined) =>
  value?.trim() ? `<b>${escapeHtml(label)}:</b> ${escapeHtml(value.trim())}` : null;

/** The card's HTML text. */
export function cardText({ lead, sourceName, leadUrl, language }: CardInput): string {
  const w = WORDS[language];
  const phone = lead.phone?.trim();
  const tel = phone ? phone.replace(/[^\d+]/g, '') : '';
  const answers = Object.entries(lead.custom ?? {}).filter(([, v]) => v?.trim());
  const utm = Object.entries(lead.utm ?? {}).filter(([, v]) => v?.trim());
  const lines = [
    `🔔 <b>${w.title}</b>`,
    line(w.name, lead.name),
    phone
      ? `<b>${w.phone}:</b> ${tel ? `<a href="tel:${escapeHtml(tel)}">${escapeHtml(phone)}</a>` : escapeHtml(phone)}`
      : null,
    line(w.email, lead.email),
    line(w.source, sourceName),
    line(w.comment, lead.comment),
    answers.length
      ? [`<b>${w.answers}:</b>`, ...answers.map(([k, v]) => `• ${escapeHtml(k)}: ${escapeHtml(v)}`)].join('\n')
      : null,
    utm.length ? `<b>UTM:</b> ${utm.map(([k, v]) => `${escapeHtml(k)}=${escapeHtml(v)}`).join(', ')}` : null,
    `<a href="${escapeHtml(leadUrl)}">${w.open}</a>`,
  ];
  return lines.filter((l): l is string => l !== null).join('\n');
}

export interface InlineKeyboard {
  inline_keyboard: { text: string; callback_data: string }[][];
}

/** "Беру" and "Передзвонив" (or only the one not pressed yet). */
export function cardKeyboard(leadId: string, language: CardLanguage, without: CardAction[] = []): InlineKeyboard {
  const w = WORDS[language];
  const buttons = [
    { text: w.take, callback_data: callbackData('t', leadId), action: 't' as const },
    { text: w.called, callback_data: callbackData('c', leadId), action: 'c' as const },
  ].filter((b) => !without.includes(b.action));
  return { inline_keyboard: [buttons.map(({ text, callback_data }) => ({ text, callback_data }))] };
}

/** The footer an edit appends: who took the lead (or called back) and when, in the card's language. */
export function reactionFooter(
  language: CardLanguage,
  action: CardAction,
  byName: string,
  at: Date,
  timeZone = 'Europe/Kyiv',
): string {
  const w = WORDS[language];
  const when = new Intl.DateTimeFormat(language === 'uk' ? 'uk-UA' : 'en-GB', {
    timeZone,
    day: '2-digit',
    month: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  }).format(at);
  return `${action === 't' ? '✅' : '📞'} <b>${action === 't' ? w.takenBy : w.calledBy}:</b> ${escapeHtml(byName)} · ${escapeHtml(when)}`;
}

/** The footer of a card whose lead went on to another manager. */
export function passedFooter(language: CardLanguage, toName: string): string {
  return `↪️ <b>${WORDS[language].passedTo}:</b> ${escapeHtml(toName)}`;
}

/** The bot's answers to the manager (/start, /away, /back, a press). */
export const BOT_WORDS = {
  uk: {
    linked: (name: string) => `Готово, ${escapeHtml(name)}: нові ліди приходитимуть сюди.`,
    ownerLinked: 'Готово: сюди приходитимуть попередження LeadRelay (джерело замовкло, доступ спливає).',
    codeInvalid: 'Код не підходить: він неправильний, застарів або вже використаний. Отримайте новий у LeadRelay.',
    hello: 'Це бот LeadRelay. Щоб отримувати ліди, відкрийте посилання з LeadRelay (Колекції → Привʼязати Telegram).',
    away: 'Позначено: вас немає. Нові ліди йтимуть іншим. Надішліть /back, коли повернетеся.',
    back: 'З поверненням: нові ліди знову йтимуть вам.',
    notLinked: 'Цей чат не привʼязаний до жодного менеджера в LeadRelay.',
    taken: 'Лід ваш',
    called: 'Записано: ви передзвонили',
    alreadyTaken: (name: string) => `Лід уже взяв ${name}`,
    alreadyCalled: (name: string) => `Уже записано: передзвонив ${name}`,
    unknownLead: 'Цього ліда вже немає',
  },
  en: {
    linked: (name: string) => `Done, ${escapeHtml(name)}: new leads will come here.`,
    ownerLinked: "Done: LeadRelay's warnings (a source gone silent, access about to end) will come here.",
    codeInvalid: 'The code does not fit: it is wrong, expired or already used. Get a new one in LeadRelay.',
    hello: 'This is the LeadRelay bot. To receive leads, open the link from LeadRelay (Collections → Link Telegram).',
    away: 'Marked away: new leads go to others. Send /back when you return.',
    back: 'Welcome back: new leads come to you again.',
    notLinked: 'This chat is not linked to any manager in LeadRelay.',
    taken: 'The lead is yours',
    called: 'Recorded: you called back',
    alreadyTaken: (name: string) => `Already taken by ${name}`,
    alreadyCalled: (name: string) => `Already recorded: called back by ${name}`,
    unknownLead: 'This lead no longer exists',
  },
} as const;
