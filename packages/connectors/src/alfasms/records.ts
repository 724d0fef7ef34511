// The SMS log (spec 7 "Other": GET /api/legacy/api/admin/sms): every message AlphaSMS took for a
// delivery is a record of kind `sms` in the server's generic table, and a periodic task asks
// AlphaSMS for the status of messages still on their way (its delivery-report hook is not
// documented; asking is: docs/connectors/alphasms.md).

import type { ConnectorAlias, ConnectorRecordInput, ConnectorRecordKind } from '../kit/types';
import { type AlphaContext, statuses } from './client';
import { smsStatusOf } from './mapping';
import { SMS_STATUSES, type SmsStatus, ZSmsBalance, ZSmsList, ZSmsListQuery, ZSmsMessage } from './schema';

/** One message AlphaSMS took: what the server keeps in the SMS log (DeliveryResult.records). */
export interface SentSms {
  recipient: 'lead' | 'manager';
  /** 380XXXXXXXXX */
  phone: string;
  channel: 'sms' | 'viber+sms';
  text: string;
  msgId: string;
  parts: number;
  cost?: number;
}

const isSent = (r: unknown): r is SentSms => {
  const s = r as Partial<SentSms> | null;
  return (
    !!s &&
    (s.recipient === 'lead' || s.recipient === 'manager') &&
    typeof s.phone === 'string' &&
    typeof s.msgId === 'string' &&
    typeof s.text === 'string' &&
    typeof s.parts === 'number'
  );
};

/** Still worth asking about: not yet delivered, or delivered by Viber, which may still be read. */
const isOpen = (status: string, channel: unknown) => status === 'sent' || (status === 'delivered' && channel !== 'sms');

function read(entry: unknown): ConnectorRecordInput | null {
  if (!isSent(entry)) return null;
  return {
    key: entry.msgId,
    status: 'sent',
    open: true,
    data: {
      recipient: entry.recipient,
      phone: entry.phone,
      channel: entry.channel,
      text: entry.text,
      msgId: entry.msgId,
      parts: entry.parts,
      providerStatus: null,
      cost: entry.cost ?? null,
    },
  };
}

/** The kind `sms` (typed for the connector that declares it; the status call needs only the key). */
export const smsRecords = <Auth, Settings>(): ConnectorRecordKind<Auth, Settings> => ({
  statuses: SMS_STATUSES,
  read,
  item: ZSmsMessage,
  refresh: {
    task: 'sms-statuses',
    everyMs: 60_000,
    recheckMs: 50_000,
    // AlphaSMS's default lifetime of a message is 2 days; after 3 its status no longer changes.
    openForMs: 72 * 3_600_000,
    batch: 200,
    async run(ctx, records) {
      const answers = await statuses(
        ctx as unknown as AlphaContext,
        records.map((r) => r.key),
      );
      return records.map((record, i) => {
        const answer = answers[i];
        const status: SmsStatus | undefined = smsStatusOf(answer?.status);
        const next = status ?? record.status;
        return {
          ...(status ? { status } : {}),
          open: isOpen(next, record.data.channel),
          data: {
            ...(answer?.status ? { providerStatus: answer.status } : {}),
            ...(answer?.cost !== undefined ? { cost: answer.cost } : {}),
          },
        };
      });
    },
  },
});

/** The spec's SMS log and the balance's path, kept for API users. */
export const smsAliases: readonly ConnectorAlias[] = [
  { method: 'GET', path: '/api/legacy/api/admin/sms', records: 'sms', query: ZSmsListQuery, response: ZSmsList },
  { method: 'GET', path: '/api/alfasms/balance/:id', list: 'balance', response: ZSmsBalance },
];
