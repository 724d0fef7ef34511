// Every word of the mails in English: the keys and parameters of uk.ts (English plurals have only
// the _one and _other forms).
import type { EnCatalogue } from './catalogue';

export const en: EnCatalogue = {
  'layout.buttonFallback': 'If the button does not open, copy this link into your browser:',
  'layout.product': 'LeadRelay: leads from your forms and ads, delivered to your CRM',
  'layout.detailLabel': 'What went wrong',

  'confirm.subject': 'Confirm your e-mail for LeadRelay',
  'confirm.preview': 'One click and you can sign in.',
  'confirm.heading': 'Welcome to LeadRelay!',
  'confirm.body': 'Confirm your e-mail address to sign in. The link is valid for 48 hours.',
  'confirm.action': 'Confirm e-mail',
  'confirm.why':
    'You got this message because this address was given when signing up for LeadRelay. If you did not sign up, ignore it.',

  'reset.subject': 'Reset your LeadRelay password',
  'reset.preview': 'The link to set a new password is valid for 2 hours.',
  'reset.heading': 'Set a new password',
  'reset.body': 'Someone asked to reset the password of your LeadRelay account. The link is valid for 2 hours.',
  'reset.action': 'Set a new password',
  'reset.why':
    'You got this message because someone asked to reset the password of the account with this address. If it was not you, ignore it: your password stays the same.',

  'operatorReset.subject': 'LeadRelay: a link to set a new password',
  'operatorReset.preview': 'LeadRelay support sent you a link to set a new password.',
  'operatorReset.heading': 'Set a new password',
  'operatorReset.body':
    'LeadRelay support sent you a link to set a new password for your account. The link is valid for 2 hours.',
  'operatorReset.keep': 'Until you set a new password, your current one keeps working.',
  'operatorReset.action': 'Set a new password',
  'operatorReset.why':
    'You got this message because LeadRelay support started a password reset for your account. If you did not ask for it, ignore this message and write to us.',

  'broken.subject': 'LeadRelay: "{name}" is not accepting leads',
  'broken.preview': 'Deliveries to "{name}" are failing.',
  'broken.heading': '"{name}" is not accepting leads',
  'broken.body': 'Deliveries to "{name}" are failing.',
  'broken.retry':
    'Nothing is lost: leads wait in the queue and we try again at {time}, then keep trying until it answers.',
  'broken.reconnect':
    'The destination refused the saved credentials. Reconnect it; until then new leads to it fail and can be sent again from the hooks page.',
  'broken.later': 'We will write again once deliveries go through.',
  'broken.action': 'Open the integration',
  'broken.why':
    'You got this message because an integration of your LeadRelay account stopped accepting leads. It comes once per outage.',

  'recovered.subject': 'LeadRelay: "{name}" works again',
  'recovered.preview': 'Deliveries to "{name}" go through again.',
  'recovered.heading': '"{name}" works again',
  'recovered.body': 'Deliveries to "{name}" go through again; leads that waited are being sent in order.',
  'recovered.action': 'Open the integration',
  'recovered.why':
    'You got this message because we wrote to you about an outage of this integration. No action is needed.',

  'held.subject': 'LeadRelay: your leads are on hold',
  'held.preview': 'New leads are stored, but not sent to your CRM.',
  'held.heading': 'Your leads are on hold',
  'held.causeExpired': 'Your LeadRelay plan has expired: new leads are accepted and stored, but not sent to your CRM.',
  'held.causeLimit':
    "Your plan's leads for this month are used up: new leads are accepted and stored, but not sent to your CRM until the month ends.",
  'held.releaseExpired':
    'Nothing is lost: within a minute of your payment they are delivered, in the order they arrived.',
  'held.releaseLimit':
    'Nothing is lost: they are delivered in the order they arrived within a minute of the new month starting, or of your move to a bigger plan.',
  'held.kept': 'Held leads are kept for at least {days}; we will write before any of them is given up.',
  'held.action': 'Choose a plan',
  'held.why':
    'You got this message because the leads of your LeadRelay account started being held. It comes once each time that happens.',

  'drop.subject_one': 'LeadRelay: {count} held lead will not be delivered after {day}',
  'drop.subject_other': 'LeadRelay: {count} held leads will not be delivered after {day}',
  'drop.preview': 'Some held leads will soon be given up.',
  'drop.heading': 'Some held leads will soon be given up',
  'drop.body_one':
    '{count} lead has been held for {days} or more. Unless the hold ends first, on {day} (UTC) it will be given up: it stays in your lead log marked as not delivered, and is not sent anywhere.',
  'drop.body_other':
    '{count} leads have been held for {days} or more. Unless the hold ends first, on {day} (UTC) they will be given up: they stay in your lead log marked as not delivered, and are not sent anywhere.',
  'drop.payExpired_one': 'Pay for a plan before then and it is delivered in the order the leads arrived.',
  'drop.payExpired_other': 'Pay for a plan before then and they are delivered in the order the leads arrived.',
  'drop.payLimit_one': 'Move to a bigger plan before then and it is delivered in the order the leads arrived.',
  'drop.payLimit_other': 'Move to a bigger plan before then and they are delivered in the order the leads arrived.',
  'drop.action': 'Choose a plan',
  'drop.why':
    'You got this message because held leads of your account are close to being given up. We write once a week while they are.',

  'renewalPaid.subject': 'LeadRelay: your plan is renewed',
  'renewalPaid.preview': 'Your plan "{plan}" is paid until {date}.',
  'renewalPaid.heading': 'Your plan is renewed',
  'renewalPaid.body': 'Your plan "{plan}" was renewed by the saved card.',
  'renewalPaid.until': 'It is paid until {date}. The invoice is on the billing page.',
  'renewalPaid.action': 'Open billing',
  'renewalPaid.why':
    'You got this message because the plan of your LeadRelay account renews automatically. To stop that, remove the card on the billing page.',

  'renewalFailed.subject': 'LeadRelay: the renewal payment was declined',
  'renewalFailed.preview': 'The bank declined the charge for your plan "{plan}".',
  'renewalFailed.heading': 'Renewal payment declined',
  'renewalFailed.body': 'The bank declined the charge for your plan "{plan}".',
  'renewalFailed.paidUntil': 'The plan is paid until {date}.',
  'renewalFailed.retry': 'We will try again on {date}. You can also pay now with another card.',
  'renewalFailed.stopped': 'We will not try again: pay from the plan page to keep your leads flowing.',
  'renewalFailed.action': 'Pay now',
  'renewalFailed.why':
    'You got this message because the plan of your LeadRelay account renews automatically. Leads are never lost: after the plan ends they are kept and delivered once it is paid.',

  // Why an integration failed (a reason code of shared REASON_CODES, lib/mail/reasons.ts).
  'reason.URL_NOT_ALLOWED': 'The address is not allowed: a private or reserved network.',
  'reason.TOO_MANY_REDIRECTS': 'The server redirected the request too many times.',
  'reason.TIMEOUT': 'The server did not answer in time.',
  'reason.ABORTED': 'The request was aborted.',
  'reason.NETWORK': 'Could not connect to the server.',
  'reason.AUTH': 'The server refused the authorisation.',
  'reason.RATE_LIMITED': 'The server asks to wait: too many requests.',
  'reason.HTTP_5XX': 'The server failed.',
  'reason.HTTP_4XX': 'The server refused the request.',
  'reason.HTTP_UNEXPECTED': 'The server gave an unexpected answer.',
  'reason.CONFIGURATION': 'The service refuses the integration’s settings.',
  'reason.INTEGRATION_SETTINGS_INVALID': 'The integration is not set up or its settings are incomplete.',
  'reason.INTEGRATION_AUTH_UNREADABLE': 'The integration’s stored credentials cannot be read: connect it again.',
  'reason.LEAD_NO_CONTACT':
    'The lead has no phone, e-mail or name, so no empty contact was made: check the field mapping of its source.',
  'reason.NO_ACTIVE_DESTINATION': 'No active destination: the lead is stored but sent nowhere.',
  'reason.DESTINATION_BROKEN': 'One of the destinations does not take leads.',
  'reason.DESTINATION_RETRYING': 'One of the destinations does not answer: leads wait for the next try.',
  'reason.PAUSED': 'Delivery is paused after several failures in a row.',
  'reason.FILTERED': 'The lead did not pass a filter.',
  'reason.DUPLICATE_OF': 'A repeat of a lead already received.',
  'reason.UNKNOWN': 'The service reported an error we could not recognise.',
  'reason.TIMEOUT_AT': 'The server {host} did not answer within {seconds} s.',
  'reason.httpStatus': 'Answer code: HTTP {status}.',
  'reason.host': 'Address: {host}.',
  'escalated.subject_one': 'LeadRelay: {count} lead passed to another manager',
  'escalated.subject_other': 'LeadRelay: {count} leads passed to other managers',
  'escalated.preview': 'A manager did not take a lead in time, so it went to the next one on duty.',
  'escalated.heading': 'Leads nobody took in time were passed on',
  'escalated.body_one': '{count} lead was not taken in time, so it went to the next manager on duty:',
  'escalated.body_other': '{count} leads were not taken in time, so they went to the next managers on duty:',
  'escalated.line': '{lead} ({source}): {from} → {to}',
  'escalated.more_one': 'And {count} more lead.',
  'escalated.more_other': 'And {count} more leads.',
  'escalated.noName': 'No name',
  'escalated.action': 'Open the lead log',
  'escalated.why':
    'You get this mail because a source passes a lead on when nobody takes it in time. Passes are gathered every minute rather than sent one by one.',

  'drought.subject': 'LeadRelay: leads stopped coming from "{name}"',
  'drought.preview': 'The last lead from "{name}" came {since}.',
  'drought.heading': 'No leads from "{name}"',
  'drought.body':
    'The last lead from "{name}" came {since}. By this source\'s own history about {expected} should have come since then, and none did.',
  'drought.check':
    'Check that the form on the site works, that the ads are running and that the webhook address did not change. Weekends and night hours that usually have no leads are not counted.',
  'drought.later':
    'We will not write again while the silence lasts; the next mail comes only if leads come back and stop again.',
  'drought.action': 'Open the guardian',
  'drought.why':
    'You got this message because the LeadRelay guardian watches the lead sources of your account. You can turn these mails off in the guardian settings.',

  'expiry.subject': 'LeadRelay: access to "{name}" ends {day}',
  'expiry.preview': 'Reconnect "{name}" before {day} so no lead is lost.',
  'expiry.heading': 'Access to "{name}" ends soon',
  'expiry.body':
    'LeadRelay\'s access to "{name}" ({service}) is valid until {time}. After that we cannot work with it until you reconnect it.',
  'expiry.renewRefresh':
    'The access renews itself while leads go through the connection. If it has not been used for a long time, reconnect it now: it takes a minute.',
  'expiry.action': 'Reconnect',
  'expiry.why':
    'You got this message because the LeadRelay guardian warns 7 days and 1 day before an access ends. You can turn these mails off in the guardian settings.',

  'access.heading': '"{name}" no longer gets leads',
  'access.body':
    '{service} refused the access stored for "{name}", so no new leads come from it. Why: {reason} Connect the source again.',
  'access.action': 'Open the source',

  'weekly.subject': 'LeadRelay: your week {period}',
  'weekly.preview': 'Leads received: {received}. Median reaction: {median}.',
  'weekly.heading': 'The week {period}',
  'weekly.received': 'Leads received: {received}; delivered: {delivered}; held: {held}; not delivered: {failed}.',
  'weekly.speed': "Your managers' reaction time: median {median}, 90th percentile {p90}.",
  'weekly.within': 'Reacted within 5 min: {w5}, 15 min: {w15}, an hour: {w60}. Leads nobody took: {never}.',
  'weekly.noReactions': 'This week the managers marked no reaction to any lead.',
  'weekly.source': '"{name}": received {received}, delivered {delivered}, held {held}, not delivered {failed}.',
  'weekly.noLeads': 'There were no leads this week.',
  'weekly.minutes': '{m} min',
  'weekly.hours': '{h} h {m} min',
  'weekly.none': 'none',
  'weekly.action': 'Open the report',
  'weekly.why':
    'You got this message because the LeadRelay weekly report is on for your account. You can turn it off in the guardian settings.',
};
