import type { Locale } from '@leadrelay/shared';
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
