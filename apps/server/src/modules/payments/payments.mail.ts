// Mail about renewals by the saved card, in the account's language.
import type { Locale } from '@leadrelay/shared';
import { render, type Template } from '../../lib/mail/templates';

export function renewalPaidMail(lang: Locale, plan: string, paidUntil: string, link: string): Template {
  if (lang === 'en') {
    return render(
      'LeadRelay: your plan is renewed',
      [
        `Your plan "${plan}" was renewed by the saved card.`,
        `It is paid until ${paidUntil}. The invoice is on the billing page.`,
      ],
      'Open billing',
      link,
      'To stop automatic renewals, remove the card on the billing page.',
    );
  }
  return render(
    'LeadRelay: тариф продовжено',
    [
      `Тариф «${plan}» продовжено збереженою карткою.`,
      `Його сплачено до ${paidUntil}. Рахунок — на сторінці «Оплата».`,
    ],
    'Відкрити оплату',
    link,
    'Щоб вимкнути автоматичне продовження, видаліть картку на сторінці «Оплата».',
  );
}

/** `nextTry`: the date of the next charge (YYYY-MM-DD), or null when renewals stopped. */
export function renewalFailedMail(
  lang: Locale,
  plan: string,
  expDate: string | null,
  nextTry: string | null,
  link: string,
): Template {
  if (lang === 'en') {
    return render(
      'LeadRelay: the renewal payment was declined',
      [
        `The bank declined the charge for your plan "${plan}".`,
        expDate ? `The plan is paid until ${expDate}.` : '',
        nextTry
          ? `We will try again on ${nextTry}. You can also pay now with another card.`
          : 'We will not try again: pay from the plan page to keep your leads flowing.',
      ].filter(Boolean),
      'Pay now',
      link,
      'Leads are never lost: after the plan ends they are kept and delivered once it is paid.',
    );
  }
  return render(
    'LeadRelay: банк відхилив оплату продовження',
    [
      `Банк відхилив списання за тариф «${plan}».`,
      expDate ? `Тариф сплачено до ${expDate}.` : '',
      nextTry
        ? `Ми спробуємо ще раз ${nextTry}. Також можна оплатити зараз іншою карткою.`
        : 'Більше спроб не буде: оплатіть тариф на сторінці тарифів, щоб ліди й далі доходили.',
    ].filter(Boolean),
    'Оплатити',
    link,
    'Ліди не губляться: після закінчення тарифу вони зберігаються й будуть доставлені після оплати.',
  );
}
