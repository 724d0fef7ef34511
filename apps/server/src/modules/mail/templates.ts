import type { Locale } from '@leadrelay/shared';
import type { MailMessage } from './mailer';

type Template = Omit<MailMessage, 'to'>;

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function render(subject: string, lines: string[], action: string, link: string, footer: string): Template {
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
