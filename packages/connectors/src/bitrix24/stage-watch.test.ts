// Bitrix24's outgoing webhook as a stage watch: the form it posts read into the record it names, the
// token it carries, and the record read back with the inbound webhook to tell a stage move from any
// other update. Against the emulator, which posts the real form to a local receiver.
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSafeFetch } from '../kit/safe-fetch';
import type { ConnectorContext } from '../kit/types';
import type { Bitrix24Auth } from './client';
import { type Bitrix24Emulator, startBitrix24Emulator } from './emulator';
import { bitrix24 } from './index';
import { type Bitrix24Settings, ZBitrix24OutgoingToken, ZBitrix24Settings } from './schema';
import { bitrix24EventForm, movedSinceMade, parseBitrix24Event, bitrix24StageWatch as watch } from './stage-watch';

const TOKEN = '51856fefc120afa4b628cc82d3935cce';
const form = (s: string) => Object.fromEntries(new URLSearchParams(s));
const dealEvent = (id = '759', token = TOKEN) =>
  form(bitrix24EventForm({ event: 'ONCRMDEALUPDATE', id, token, domain: 'acme.bitrix24.ua', ts: 1736405807 }));

describe('reading what the outgoing webhook posts', () => {
  it('a deal or lead update names its record, its kind and when it was sent; the token is read apart', () => {
    expect(watch.read(dealEvent())).toEqual([{ externalId: '759', kind: 'deal', at: new Date(1736405807 * 1000) }]);
    expect(watch.tokenOf(dealEvent())).toBe(TOKEN);
    const lead = form(bitrix24EventForm({ event: 'ONCRMLEADUPDATE', id: '12', token: TOKEN, domain: 'a.bitrix24.ua' }));
    expect(watch.read(lead)).toEqual([expect.objectContaining({ externalId: '12', kind: 'lead' })]);
    // The JSON the events' pages print reads the same.
    const json = {
      event: 'ONCRMDEALUPDATE',
      event_handler_id: '201',
      data: { FIELDS: { ID: '759' } },
      ts: '1736405807',
      auth: { domain: 'some-domain.bitrix24.com', application_token: TOKEN },
    };
    expect(watch.read(json)).toEqual(watch.read(dealEvent()));
    expect(watch.tokenOf(json)).toBe(TOKEN);
  });

  it('other events are well formed and name nothing; a body that is not the shape is null', () => {
    const contact = form(bitrix24EventForm({ event: 'ONCRMCONTACTUPDATE', id: '5', token: TOKEN, domain: 'a.b' }));
    expect(watch.read(contact)).toEqual([]);
    expect(watch.read({ event: 'ONAPPINSTALL' })).toEqual([]);
    for (const bad of [
      null,
      'event=ONCRMDEALUPDATE',
      [1, 2],
      {},
      { event: '' },
      { event: 'ONCRM DEAL' },
      { event: ['ONCRMDEALUPDATE'] },
      { event: 'ONCRMDEALUPDATE', 'data[FIELDS][ID]': 'abc' },
      { event: 'ONCRMDEALUPDATE', 'data[FIELDS][ID]': ['1', '2'] },
      { event: 'ONCRMDEALUPDATE', data: { FIELDS: { ID: { toString: 1 } } } },
    ]) {
      expect([bad, watch.read(bad)]).toEqual([bad, null]);
    }
    // Names are data: an inherited `event` is no event.
    expect(parseBitrix24Event(Object.create({ event: 'ONCRMDEALUPDATE' }))).toBeNull();
    expect(watch.tokenOf({ event: 'ONCRMDEALUPDATE' })).toBeUndefined();
  });

  it('the pasted token is the shape Bitrix24 shows; anything else is refused with its key', () => {
    expect(ZBitrix24OutgoingToken.parse(`  ${TOKEN} `)).toBe(TOKEN);
    for (const bad of ['short', `${TOKEN}!`, 'a b c d e f g h i j k l m n o p', 'x'.repeat(129)]) {
      const parsed = ZBitrix24OutgoingToken.safeParse(bad);
      expect(parsed.success ? 'accepted' : parsed.error.issues[0]?.message).toBe('BITRIX24_OUTGOING_TOKEN_INVALID');
    }
  });
});

describe('a record moved since we made it', () => {
  const ours = { ORIGINATOR_ID: 'leadrelay', DATE_CREATE: '2024-08-30T14:29:00+02:00' };
  it('moved later than made: when and by whom; never moved, not ours or unreadable: nothing', () => {
    expect(movedSinceMade('7', { ...ours, MOVED_TIME: '2024-08-30T14:31:10+02:00', MOVED_BY_ID: '2' })).toEqual({
      externalId: '7',
      at: new Date('2024-08-30T12:31:10Z'),
      byId: '2',
    });
    expect(movedSinceMade('7', { ...ours, MOVED_TIME: ours.DATE_CREATE, MOVED_BY_ID: '1' })).toBeUndefined();
    expect(
      movedSinceMade('7', { ...ours, ORIGINATOR_ID: null, MOVED_TIME: '2024-09-01T00:00:00+00:00' }),
    ).toBeUndefined();
    expect(movedSinceMade('7', { ...ours, MOVED_TIME: 'soon' })).toBeUndefined();
    expect(movedSinceMade('7', { ...ours })).toBeUndefined();
    expect(movedSinceMade('7', null)).toBeUndefined();
    // A user id that is no user is left out, the move still counts.
    expect(movedSinceMade('7', { ...ours, MOVED_TIME: '2024-08-31T00:00:00+00:00', MOVED_BY_ID: '0' })).toEqual({
      externalId: '7',
      at: new Date('2024-08-31T00:00:00Z'),
    });
  });
});

describe('against the emulator: an outgoing webhook, a delivered deal moved by a manager', () => {
  let em: Bitrix24Emulator;
  let receiver: Server;
  let hookUrl: string;
  const received: Record<string, string>[] = [];
  const ctx = (target: 'deal' | 'lead'): ConnectorContext<Bitrix24Auth, Bitrix24Settings> => ({
    auth: { kind: 'webhook', webhookUrl: em.webhookUrl },
    settings: ZBitrix24Settings.parse({ target }),
    fetch: createSafeFetch({ allowPrivate: true, timeoutMs: 5000 }),
    logger: { debug() {}, info() {}, warn() {} },
    signal: new AbortController().signal,
  });
  const deliver = async (target: 'deal' | 'lead') =>
    (
      await bitrix24.deliver!(ctx(target), {
        lead: { name: 'Олена', phone: '+380501234567', source: 'test' } as never,
        idempotencyKey: `k-${target}-${Math.random()}`,
      })
    ).externalId!;

  beforeAll(async () => {
    em = await startBitrix24Emulator();
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => {
        received.push(form(body));
        res.end('{}');
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const { port } = receiver.address() as { port: number };
    hookUrl = `http://127.0.0.1:${port}/events`;
  });
  afterAll(async () => {
    await em?.close();
    await new Promise((r) => receiver?.close(r));
  });
  beforeEach(() => {
    em.reset();
    received.length = 0;
  });

  it('posts the form Bitrix24 posts, with the token it showed; a stage move is confirmed with who and when', async () => {
    const hook = em.addOutgoingWebhook({ url: hookUrl });
    expect(hook.token).toMatch(/^[0-9a-f]{32}$/);
    expect(ZBitrix24OutgoingToken.safeParse(hook.token).success).toBe(true);
    const dealId = await deliver('deal');

    // An edit that does not move the deal is an update event too, but no reaction.
    await em.updateRecord('deal', dealId, { title: 'Перейменовано', userId: 2 });
    expect(received).toHaveLength(1);
    const [renamed] = watch.read(received[0])!;
    expect(renamed).toMatchObject({ externalId: dealId, kind: 'deal' });
    expect(watch.tokenOf(received[0])).toBe(hook.token);
    expect(await watch.confirm(ctx('deal'), renamed!)).toBeUndefined();

    await em.updateRecord('deal', dealId, { stage: 'PREPARATION', userId: 2 });
    const [moved] = watch.read(received[1])!;
    const change = await watch.confirm(ctx('deal'), moved!);
    expect(change).toEqual({
      externalId: dealId,
      at: expect.any(Date),
      byId: '2',
      stage: { id: 'PREPARATION', pipelineId: '0' },
    });
    expect(change!.at!.getTime()).toBeGreaterThan(Date.parse(String(em.deals[0]!.DATE_CREATE)));
    expect(em.calls('crm.deal.get').map((c) => c.params)).toEqual([{ id: dealId }, { id: dealId }]);
  });

  it('a lead moved to another status counts; a record made by hand in the portal does not', async () => {
    em.addOutgoingWebhook({ url: hookUrl, events: ['ONCRMLEADUPDATE'] });
    const leadId = await deliver('lead');
    await em.updateRecord('lead', leadId, { stage: 'IN_PROCESS' });
    const [moved] = watch.read(received[0])!;
    expect(await watch.confirm(ctx('lead'), moved!)).toEqual({
      externalId: leadId,
      at: expect.any(Date),
      byId: '1',
      stage: { id: 'IN_PROCESS' },
    });

    // A lead of the portal's own (no ORIGINATOR_ID of ours), moved: not ours to count.
    const res = await fetch(`${em.webhookUrl}crm.lead.add.json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ fields: { TITLE: 'Вручну' } }),
    });
    const byHand = String(((await res.json()) as { result: number }).result);
    await em.updateRecord('lead', byHand, { stage: 'IN_PROCESS' });
    const [theirs] = watch.read(received[1])!;
    expect(await watch.confirm(ctx('lead'), theirs!)).toBeUndefined();
    // Only the events the webhook was made with are posted.
    const dealId = await deliver('deal');
    await em.updateRecord('deal', dealId, { stage: 'PREPARATION' });
    expect(received).toHaveLength(2);
  });

  it('a record the portal no longer has fails the read (the server logs it and records nothing)', async () => {
    await expect(watch.confirm(ctx('deal'), { externalId: '424242', kind: 'deal' })).rejects.toThrow();
    expect(await watch.confirm(ctx('deal'), { externalId: '1', kind: 'contact' })).toBeUndefined();
  });
});
