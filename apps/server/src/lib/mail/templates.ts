import {
  formatDays,
  HELD_DROP_NOTICE_DAYS,
  HELD_RETENTION_DAYS,
  type HoldReason,
  type Locale,
  ukrainianPlural,
} from '@leadrelay/shared';
import type { MailMessage } from './mailer';

export type Template = Omit<MailMessage, 'to'>;

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function render(subject: string, lines: string[], action: string, link: string, footer: string): Template {
  const text = [...lines, '', link, '', footer].join('\n');
  const html = [
    '<!doctype html><html><body style="font-family:sans-serif;line-height:1.5">',
    ...lines.map((l) => `<p>${escapeHtml(l)}</p>`),
    `<p><a href="${escapeHtml(link)}">${escapeHtml(action)}</a></p>`,
    `<p style="color:#888">${escapeHtml(footer)}</p>`,
    '</body></html>',
  ].join('');
  return { subject, text, html, link };
}

export function confirmEmailMail(lang: Locale, link: string): Template {
  if (lang === 'en') {
    return render(
      'Confirm your e-mail for LeadRelay',
      ['Welcome to LeadRelay!', 'Confirm your e-mail address to sign in. The link is valid for 48 hours.'],
      'Confirm e-mail',
      link,
      'If you did not sign up, ignore this message.',
    );
  }
  return render(
    'Підтвердіть e-mail для LeadRelay',
    ['Вітаємо в LeadRelay!', 'Підтвердіть адресу e-mail, щоб увійти. Посилання дійсне 48 годин.'],
    'Підтвердити e-mail',
    link,
    'Якщо ви не реєструвалися, просто проігноруйте цей лист.',
  );
}

export function resetPasswordMail(lang: Locale, link: string): Template {
  if (lang === 'en') {
    return render(
      'Reset your LeadRelay password',
      ['Someone asked to reset the password of your LeadRelay account.', 'The link is valid for 2 hours.'],
      'Set a new password',
      link,
      'If it was not you, ignore this message: your password stays the same.',
    );
  }
  return render(
    'Відновлення пароля LeadRelay',
    ['Надійшов запит на відновлення пароля вашого акаунта LeadRelay.', 'Посилання дійсне 2 години.'],
    'Встановити новий пароль',
    link,
    'Якщо це були не ви, проігноруйте лист: пароль залишиться без змін.',
  );
}

export interface IntegrationAlert {
  /** The integration's name as the user gave it. */
  name: string;
  /** Why it is broken (the destination's answer). */
  reason: string;
  /** When deliveries are tried again; null when the user must reconnect first. */
  retryAt: Date | null;
  link: string;
}

/** A date and time in UTC, spelled for the language (the account has no time zone). */
const utcTime = (lang: Locale, date: Date) =>
  `${new Intl.DateTimeFormat(lang === 'en' ? 'en-GB' : 'uk-UA', {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: 'UTC',
  }).format(date)} UTC`;

export function integrationBrokenMail(lang: Locale, alert: IntegrationAlert): Template {
  if (lang === 'en') {
    return render(
      `LeadRelay: "${alert.name}" is not accepting leads`,
      [
        `Deliveries to "${alert.name}" are failing: ${alert.reason}`,
        alert.retryAt
          ? `Nothing is lost: leads wait in the queue and we try again at ${utcTime(lang, alert.retryAt)}, then keep trying until it answers.`
          : 'The destination refused the saved credentials. Reconnect it; until then new leads to it fail and can be sent again from the hooks page.',
        'We will write again once deliveries go through.',
      ],
      'Open the integration',
      alert.link,
      'You get this message once per outage.',
    );
  }
  return render(
    `LeadRelay: «${alert.name}» не приймає ліди`,
    [
      `Доставка до «${alert.name}» не вдається: ${alert.reason}`,
      alert.retryAt
        ? `Нічого не втрачено: ліди чекають у черзі, наступна спроба — ${utcTime(lang, alert.retryAt)}, і далі, доки інтеграція не відповість.`
        : 'Інтеграція відхилила збережені облікові дані. Підключіть її заново; доти нові ліди до неї не доставляються, їх можна надіслати повторно зі сторінки хуків.',
      'Ми напишемо ще раз, щойно доставка відновиться.',
    ],
    'Відкрити інтеграцію',
    alert.link,
    'Цей лист надходить один раз на кожен збій.',
  );
}

export function integrationRecoveredMail(lang: Locale, name: string, link: string): Template {
  if (lang === 'en') {
    return render(
      `LeadRelay: "${name}" works again`,
      [`Deliveries to "${name}" go through again; leads that waited are being sent in order.`],
      'Open the integration',
      link,
      'No action is needed.',
    );
  }
  return render(
    `LeadRelay: «${name}» знову працює`,
    [`Доставка до «${name}» відновилася; ліди, що чекали, надсилаються по черзі.`],
    'Відкрити інтеграцію',
    link,
    'Нічого робити не потрібно.',
  );
}

/** A Facebook connection whose token or permissions Facebook refused (once per outage). */
export function facebookConnectionBrokenMail(
  lang: Locale,
  alert: { name: string; reason: string; link: string },
): Template {
  if (lang === 'en') {
    return render(
      `LeadRelay: reconnect Facebook "${alert.name}"`,
      [
        `Facebook refused the access of the connection "${alert.name}": ${alert.reason}`,
        'Until you reconnect it, leads from the lead forms of its pages cannot be read: they wait at Facebook, so reconnect it soon.',
      ],
      'Reconnect Facebook',
      alert.link,
      'You get this message once per outage.',
    );
  }
  return render(
    `LeadRelay: підключіть Facebook «${alert.name}» знову`,
    [
      `Facebook відхилив доступ підключення «${alert.name}»: ${alert.reason}`,
      'Доки ви не підключите його знову, ліди з форм його сторінок не можна прочитати: вони чекають у Facebook, тож підключіть його якнайшвидше.',
    ],
    'Підключити Facebook',
    alert.link,
    'Цей лист надходить один раз на кожен збій.',
  );
}

/** A day in UTC, spelled for the language. */
const utcDay = (lang: Locale, date: Date) =>
  new Intl.DateTimeFormat(lang === 'en' ? 'en-GB' : 'uk-UA', { dateStyle: 'long', timeZone: 'UTC' }).format(date);

const UK_LEADS = { one: 'лід', few: 'ліди', many: 'лідів' } as const;
const leadsWord = (lang: Locale, n: number) =>
  lang === 'en' ? (n === 1 ? 'lead' : 'leads') : UK_LEADS[ukrainianPlural(n)];

/** Why the leads wait and what lets them go, in a line. */
function holdCause(lang: Locale, reason: HoldReason): string {
  if (lang === 'en') {
    return reason === 'plan_expired'
      ? 'Your LeadRelay plan has expired: new leads are accepted and stored, but not sent to your CRM.'
      : "Your plan's leads for this month are used up: new leads are accepted and stored, but not sent to your CRM until the month ends.";
  }
  return reason === 'plan_expired'
    ? 'Термін дії вашого тарифу LeadRelay закінчився: нові ліди приймаються та зберігаються, але не надсилаються до вашої CRM.'
    : 'Ліміт лідів вашого тарифу на цей місяць вичерпано: нові ліди приймаються та зберігаються, але не надсилаються до вашої CRM до кінця місяця.';
}

/** Once per hold: the account's leads have started to be held. */
export function leadsHeldMail(lang: Locale, reason: HoldReason, link: string): Template {
  if (lang === 'en') {
    return render(
      'LeadRelay: your leads are on hold',
      [
        holdCause(lang, reason),
        reason === 'plan_expired'
          ? 'Nothing is lost: within a minute of your payment they are delivered, in the order they arrived.'
          : 'Nothing is lost: they are delivered in the order they arrived within a minute of the new month starting, or of your move to a bigger plan.',
        `Held leads are kept for at least ${formatDays(HELD_RETENTION_DAYS, lang)}; we will write before any of them is given up.`,
      ],
      'Choose a plan',
      link,
      'You get this message once each time leads start being held.',
    );
  }
  return render(
    'LeadRelay: ваші ліди утримуються',
    [
      holdCause(lang, reason),
      reason === 'plan_expired'
        ? 'Нічого не втрачено: протягом хвилини після оплати їх буде доставлено в тому порядку, в якому вони надійшли.'
        : 'Нічого не втрачено: їх буде доставлено в порядку надходження протягом хвилини після початку нового місяця або переходу на більший тариф.',
      `Утримані ліди зберігаються щонайменше ${formatDays(HELD_RETENTION_DAYS, lang)}; ми напишемо, перш ніж будь-який із них буде знято з черги.`,
    ],
    'Вибрати тариф',
    link,
    'Цей лист надходить один раз щоразу, коли ліди починають утримуватися.',
  );
}

/** A week ahead: how many held leads are given up (never delivered) and when. */
export function heldLeadsDropMail(
  lang: Locale,
  notice: { reason: HoldReason; count: number; dropAt: Date; link: string },
): Template {
  const { count, reason } = notice;
  const day = utcDay(lang, notice.dropAt);
  const days = formatDays(HELD_RETENTION_DAYS - HELD_DROP_NOTICE_DAYS, lang);
  if (lang === 'en') {
    const one = count === 1;
    return render(
      `LeadRelay: ${count} held ${leadsWord(lang, count)} will not be delivered after ${day}`,
      [
        holdCause(lang, reason),
        one
          ? `1 lead has been held for ${days} or more. Unless the hold ends first, on ${day} (UTC) it will be given up: it stays in your lead log marked as not delivered, and is not sent anywhere.`
          : `${count} leads have been held for ${days} or more. Unless the hold ends first, on ${day} (UTC) they will be given up: they stay in your lead log marked as not delivered, and are not sent anywhere.`,
        reason === 'plan_expired'
          ? `Pay for a plan before then and ${one ? 'it is' : 'they are'} delivered in the order the leads arrived.`
          : `Move to a bigger plan before then and ${one ? 'it is' : 'they are'} delivered in the order the leads arrived.`,
      ],
      'Choose a plan',
      notice.link,
      'We write once a week while held leads are close to being given up.',
    );
  }
  const one = ukrainianPlural(count) === 'one';
  return render(
    `LeadRelay: ${count} ${leadsWord(lang, count)} не буде доставлено після ${day}`,
    [
      holdCause(lang, reason),
      one
        ? `${count} ${leadsWord(lang, count)} утримується ${days} або довше. Якщо утримання не закінчиться раніше, ${day} (UTC) його буде знято з черги: він залишиться в журналі лідів із позначкою «не доставлено» і нікуди не надсилатиметься.`
        : `${count} ${leadsWord(lang, count)} утримуються ${days} або довше. Якщо утримання не закінчиться раніше, ${day} (UTC) їх буде знято з черги: вони залишаться в журналі лідів із позначкою «не доставлено» і нікуди не надсилатимуться.`,
      reason === 'plan_expired'
        ? `Оплатіть тариф до цієї дати, і ${one ? 'його' : 'їх'} буде доставлено в порядку надходження.`
        : `Перейдіть на більший тариф до цієї дати, і ${one ? 'його' : 'їх'} буде доставлено в порядку надходження.`,
    ],
    'Вибрати тариф',
    notice.link,
    'Ми пишемо раз на тиждень, доки утримані ліди наближаються до зняття з черги.',
  );
}
