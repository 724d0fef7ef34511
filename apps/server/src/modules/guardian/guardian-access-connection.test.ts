// The guardian's `access` alert (issue 32) for the sources of an account connection whose login the
// service refuses (Meta's revoked permission, through the Graph emulator): each source on it gets
// one open alert with the connection's reason, a second refusal in the same outage none more, and
// logging in again closes them; another account sees none.
import { GRAPH_SEED } from '@leadrelay/connectors/testing';
import type { GuardianAlert } from '@leadrelay/shared';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardianAlerts } from '../../db/schema';
import { call, connect, connectionRow, type FacebookTest, startFacebookTest } from '../../test/facebook-kit';
import { expectError, signUp } from '../../test/test-app';

let f: FacebookTest;
beforeAll(async () => {
  f = await startFacebookTest();
});
afterAll(() => f?.close());

const [dental] = GRAPH_SEED.pages;
const accessOf = (integrationId: string) =>
  f.t.app.db
    .select()
    .from(guardianAlerts)
    .where(and(eq(guardianAlerts.integrationId, integrationId), eq(guardianAlerts.kind, 'access')));

describe("an account connection's refused login", () => {
  it('opens one access alert per source on it until the owner logs in again', async () => {
    f.emu.reset();
    const alice = await signUp(f.t);
    const cid = await connect(f.t, alice);
    const created = await call(f.t, 'POST', '/api/integrations', alice, {
      type: 'facebook',
      name: 'Ліди з Facebook',
      settings: { fbConnectionId: cid, fbPageId: dental.id, fbFormId: GRAPH_SEED.forms.consultation },
    });
    expect(created.statusCode).toBe(201);
    const id = created.json()._id as string;
    const pageUrl = `/api/facebook/connection/${cid}/account/${dental.id}`;

    f.emu.revokePermission();
    expectError(await call(f.t, 'GET', pageUrl, alice), 400, 'CONNECTION_FAILED');
    expectError(await call(f.t, 'GET', pageUrl, alice), 400, 'CONNECTION_FAILED');
    const conn = (await connectionRow(f.t, cid))!;
    expect(conn.status).toBe('broken');
    const [alert, ...more] = await accessOf(id);
    expect(more).toEqual([]);
    expect(alert).toMatchObject({ closedAt: null, reason: conn.statusReason });
    // Told by the connection's broken mail (one for the outage).
    expect(alert!.notifiedAt).toBeInstanceOf(Date);

    const listed: GuardianAlert[] = (await call(f.t, 'GET', '/api/guardian/alerts', alice)).json();
    expect(listed).toEqual([
      expect.objectContaining({ kind: 'access', integration: { _id: id, name: 'Ліди з Facebook', type: 'facebook' } }),
    ]);
    const bob = await signUp(f.t);
    expect((await call(f.t, 'GET', '/api/guardian/alerts', bob)).json()).toEqual([]);

    f.emu.reset();
    expect(await connect(f.t, alice)).toBe(cid);
    expect((await accessOf(id)).map((a) => a.closedAt === null)).toEqual([false]);
  });
});
