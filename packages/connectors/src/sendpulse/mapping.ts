// Pure: what the SendPulse connector sends and how it reads SendPulse's contacts.
import type { Lead } from '@leadrelay/shared';
import type { ChatbotContact } from './client';
import type { SendpulseChannel } from './schema';

/** Digits only: "+38 (050) 123-45-67" and "380501234567" are the same phone. */
export const phoneDigits = (phone: string): string => phone.replace(/\D+/g, '');

/** Phones count as the same when their digits match, or when one ends with the other's last 9+ digits
 * (a national number without the country code). */
export function samePhone(a: string, b: string): boolean {
  const x = phoneDigits(a);
  const y = phoneDigits(b);
  if (!x || !y) return false;
  if (x === y) return true;
  const [short, long] = x.length < y.length ? [x, y] : [y, x];
  return short.length >= 9 && long.endsWith(short);
}

export function toCrmContact(
  lead: Lead,
  externalContactId: string,
): {
  firstName: string;
  lastName?: string;
  externalContactId: string;
} {
  const name = (lead.name ?? '').trim();
  const [first, ...rest] = name.split(/\s+/);
  const firstName = (first || lead.phone || lead.email || 'Lead').slice(0, 255);
  const lastName = rest.join(' ').slice(0, 255);
  return { firstName, ...(lastName ? { lastName } : {}), externalContactId };
}

export function dealName(lead: Lead): string {
  return `Lead: ${lead.name?.trim() || lead.phone || lead.email || 'no name'}`.slice(0, 255);
}

/** The contact's display name from its channel data. */
export function contactName(contact: ChatbotContact): string {
  const d = contact.channel_data ?? {};
  const full = [d.first_name, d.last_name].filter(Boolean).join(' ').trim();
  return d.name?.trim() || full || d.username || contact.id;
}

// The conversation in SendPulse's web app. Unconfirmed: SendPulse documents no deep link; this is the
// address its inbox uses for one chat (docs/sendpulse-widget.md).
export const SENDPULSE_APP_URL = 'https://login.sendpulse.com';
export function conversationUrl(channel: SendpulseChannel, botId: string, contactId: string): string {
  const params = new URLSearchParams({ bot_id: botId, contact_id: contactId });
  return `${SENDPULSE_APP_URL}/chatbots/${channel}/chats?${params}`;
}
