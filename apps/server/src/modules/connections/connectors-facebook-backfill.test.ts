import { facebook, signBody } from '@leadrelay/connectors';
import type { HttpEmulator } from '@leadrelay/connectors/http/emulator';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { connectorCursors } from '../../db/schema';
import { connect, connectionRow, type FacebookTest, startFacebookTest } from '../../test/facebook-kit';
import {
  CONSULTATION,
  DENTAL,
  eventsOf,
  type LeadSetup,
  leadSetup,
  leadsOf,
  received,
  startReceiver,
  work,
} from '../../test/facebook-leads-kit';
import { type SignedInUser, signUp } from '../../test/test-app';

let f: FacebookTest;
let receiver: HttpEmulator;
let alice: SignedInUser;
let setup: LeadSetup;

beforeAll(async () => {
  f = await startFacebookTest();
  receiver = await startReceiver();
  alice = await signUp(f.t);
  setup = await leadSetup(f.t, alice, await connect(f.t, alice), receiver);
});
afterAll(async () => {
  await receiver?.close();
  await f?.close();
});
beforeEach(() => f.emu.setWebhookDelivery('on'));

const sweep = () => f.t.app.periodic.runNow(facebook.connections!.backfill.task);
const leadsWith = async (leadgenId: string) =>
  (await leadsOf(f.t, setup.integrationId)).filter((l) => l.sourceId === leadgenId);

describe('the 15-minute backfill sweep', () => {
  it('finds a lead whose webhook never came and ingests it once; sweeping again adds nothing', async () => {
    f.emu.setWebhookDelivery('drop');
    const leadgenId = f.emu.submitLead({ formId: CONSULTATION });
    await f.emu.idle();
    expect(f.emu.deliveries.filter((d) => d.leadgenIds.includes(leadgenId)).map((d) => d.outcome)).toEqual(['dropped']);
    expect(await eventsOf(f.t, leadgenId)).toEqual([]);

    expect(await sweep()).toBe('ran');
    expect((await eventsOf(f.t, leadgenId))[0]).toMatchObject({ origin: 'sweep', pageId: DENTAL.id });
    await work(f.t);
    expect(await leadsWith(leadgenId)).toHaveLength(1);
    expect(received(receiver, leadgenId)).toHaveLength(1);
    const [cursor] = await f.t.app.db.select().from(connectorCursors);
    expect(cursor).toMatchObject({ type: 'facebook', key: CONSULTATION, assetId: DENTAL.id });

    // The next sweep reads a window that overlaps the last one: the lead is seen again and skipped.
    expect(await sweep()).toBe('ran');
    await work(f.t);
    expect(await eventsOf(f.t, leadgenId)).toHaveLength(1);
    expect(await leadsWith(leadgenId)).toHaveLength(1);
    expect(received(receiver, leadgenId)).toHaveLength(1);

    // Meta's late retry of the webhook changes nothing either.
    const raw = JSON.stringify({
      object: 'page',
      entry: [
        {
          id: DENTAL.id,
          time: 1,
          changes: [{ field: 'leadgen', value: { leadgen_id: leadgenId, page_id: DENTAL.id } }],
        },
      ],
    });
    const late = await f.t.app.inject({
      method: 'POST',
      url: '/api/facebook/webhook',
      payload: raw,
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': signBody(raw, f.emu.appSecret) },
    });
    expect(late.statusCode).toBe(200);
    await work(f.t);
    expect(await leadsWith(leadgenId)).toHaveLength(1);
  });

  it('does not ingest again a lead the webhook already brought', async () => {
    const leadgenId = f.emu.submitLead({ formId: CONSULTATION });
    await f.emu.idle();
    await work(f.t);
    expect(await leadsWith(leadgenId)).toHaveLength(1);
    expect(await sweep()).toBe('ran');
    await work(f.t);
    expect((await eventsOf(f.t, leadgenId))[0]).toMatchObject({ origin: 'webhook', status: 'done' });
    expect(await leadsWith(leadgenId)).toHaveLength(1);
    expect(received(receiver, leadgenId)).toHaveLength(1);
  });

  it('a refused token marks the connection broken (one mail); the lead is swept after the reconnect', async () => {
    const alerts = () => f.t.outbox.filter((m) => m.to === alice.login && /Facebook/.test(m.subject));
    const mailsBefore = alerts().length;
    f.emu.setWebhookDelivery('drop');
    const leadgenId = f.emu.submitLead({ formId: CONSULTATION });
    await f.emu.idle();
    f.emu.expirePageTokens();

    expect(await sweep()).toBe('ran');
    expect((await connectionRow(f.t, setup.connectionId))!.status).toBe('broken');
    expect(await sweep()).toBe('ran');
    expect(alerts().slice(mailsBefore)).toHaveLength(1);
    expect(await eventsOf(f.t, leadgenId)).toEqual([]);

    await connect(f.t, alice);
    expect(await sweep()).toBe('ran');
    await work(f.t);
    expect(await leadsWith(leadgenId)).toHaveLength(1);
    expect((await connectionRow(f.t, setup.connectionId))!.status).toBe('ok');
  });
});
