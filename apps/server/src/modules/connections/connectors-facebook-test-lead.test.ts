// "Send a test lead": Graph's test_leads on the integration's form, which comes back through the
// webhook like a real lead and reaches the destination; Meta's one-test-lead-per-form rule is handled.
import type { HttpEmulator } from '@leadrelay/connectors/http/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, connect, type FacebookTest, startFacebookTest } from '../../test/facebook-kit';
import { type LeadSetup, leadSetup, received, startReceiver, work } from '../../test/facebook-leads-kit';
import { type SignedInUser, signUp } from '../../test/test-app';

let f: FacebookTest;
let receiver: HttpEmulator;
let alice: SignedInUser;
let bob: SignedInUser;
let setup: LeadSetup;

beforeAll(async () => {
  f = await startFacebookTest();
  receiver = await startReceiver();
  alice = await signUp(f.t);
  bob = await signUp(f.t);
  setup = await leadSetup(f.t, alice, await connect(f.t, alice), receiver);
});
afterAll(async () => {
  await receiver?.close();
  await f?.close();
});

const testLead = (user: SignedInUser, id: string, body?: unknown) =>
  call(f.t, 'POST', `/api/facebook/integration/${id}/test-lead`, user, body);

describe('send a test lead', () => {
  it('two test leads in a row both reach the destination, with the answers given', async () => {
    const first = await testLead(alice, setup.integrationId, {
      fieldData: [
        { name: 'full_name', values: ['Test Person'] },
        { name: 'email', values: ['test.person@example.com'] },
      ],
    });
    expect(first.statusCode, first.body).toBe(200);
    await f.emu.idle();
    await work(f.t);
    const [sent] = received(receiver, first.json().leadgenId);
    expect(sent?.body).toMatchObject({ lead: { name: 'Test Person', email: 'test.person@example.com' } });

    // Meta keeps one test lead per form: the second replaces the first instead of failing.
    const second = await testLead(alice, setup.integrationId);
    expect(second.statusCode, second.body).toBe(200);
    await f.emu.idle();
    await work(f.t);
    expect(received(receiver, second.json().leadgenId)).toHaveLength(1);
  });

  it("another account's integration, or a bad body, is refused", async () => {
    expect((await testLead(bob, setup.integrationId)).statusCode).toBe(404);
    expect((await testLead(alice, 'not-an-id')).statusCode).toBe(404);
    expect((await testLead(alice, setup.integrationId, { fieldData: 'x' })).statusCode).toBe(400);
  });
});
