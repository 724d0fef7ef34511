// The MCP tools through the SDK's own client (InMemoryTransport): what an AI assistant holding an
// API key sees and can do, on a real database with a real delivery worker.
import { randomUUID } from 'node:crypto';
import { getConnector } from '@leadrelay/connectors';
import { type HttpEmulator, startHttpEmulator } from '@leadrelay/connectors/http/emulator';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, deliveries, users } from '../../db/schema';
import { accountIdOf, createDestination, createSource } from '../../test/routing-fixtures';
import { createTestApp, signUp, type TestApp } from '../../test/test-app';
import { testDestination } from '../../test/test-destination';
import type { McpPrincipal } from './mcp-context';
import { createMcpServer } from './mcp-server';

const dest = testDestination();
let t: TestApp;
let emulator: HttpEmulator;
const clients: Client[] = [];

beforeAll(async () => {
  emulator = await startHttpEmulator();
  t = await createTestApp({
    allowPrivateDestinations: true,
    delivery: { getConnector: (slug) => (slug === 'test-crm' ? dest.connector : getConnector(slug)), random: () => 0 },
  });
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  dest.failAlways(undefined);
});
afterAll(async () => {
  await emulator.close();
  await t.close();
});

/** An account whose site form sends each lead to the http emulator and to a CRM. */
async function account() {
  await t.app.deliveryWorker.drain();
  const user = await signUp(t);
  const accountId = await accountIdOf(t.app.db, user.login);
  const http = await createDestination(t.app.db, accountId, {
    type: 'http',
    name: 'Webhook out',
    settings: { url: emulator.hookUrl },
  });
  const crm = await createDestination(t.app.db, accountId, { name: 'My CRM' });
  const source = await createSource(t.app.db, accountId, { destinationIds: [http, crm] });
  const post = async (body: object) =>
    (await t.app.inject({ method: 'POST', url: source.url, payload: body })).json().hookId as string;
  const principal = (scope: 'read' | 'write' = 'write'): McpPrincipal => ({
    keyId: randomUUID(),
    keyName: 'Claude on the laptop',
    scope,
    accountId,
    actor: { id: accountId },
  });
  return { user, accountId, http, crm, source, post, principal };
}

async function connect(principal: McpPrincipal, login = 'someone@example.com') {
  const [lang] = await t.app.db.select({ lang: users.lang }).from(users).where(eq(users.id, principal.accountId));
  const server = createMcpServer({ deps: t.app.deps, principal, locale: lang?.lang ?? 'uk', login });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'test-assistant', version: '1.0.0' });
  await client.connect(clientSide);
  clients.push(client);
  return client;
}

type Structured = Record<string, unknown> & { error?: { code: string; statusCode: number; message: string } };
async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = await client.callTool({ name, arguments: args });
  return { isError: result.isError === true, data: result.structuredContent as Structured, result };
}

interface LeadOut {
  hookId: string;
  isTest: boolean;
  status: { code: string; words: string };
  lead: { name: string | null; phone: string | null; email: string | null };
  deliveries: {
    id: string;
    destination: { id: string; name: string };
    status: { code: string; words: string };
    attempts: number;
    lastError: { code: string; words: string } | null;
    attemptsLog: { number: number; outcome: string; httpStatus: number | null }[];
  }[];
}
const leadsOf = (data: Structured) => data.leads as LeadOut[];

describe('the MCP tools', () => {
  it('lists the seven tools, described in the account language', async () => {
    const a = await account();
    const uk = await connect(a.principal('read'));
    const { tools } = await uk.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'find_leads',
      'guardian_alerts',
      'list_integrations',
      'plan_and_usage',
      'resend_delivery',
      'send_test_lead',
      'speed_report',
    ]);
    const find = tools.find((tool) => tool.name === 'find_leads')!;
    expect(find.description).toMatch(/Знайти ліди за телефоном/);
    expect(find.inputSchema.required).toEqual(['query']);
    expect(tools.find((tool) => tool.name === 'list_integrations')!.annotations?.readOnlyHint).toBe(true);

    await t.app.db.update(users).set({ lang: 'en' }).where(eq(users.id, a.accountId));
    const en = await connect(a.principal('read'));
    const enFind = (await en.listTools()).tools.find((tool) => tool.name === 'find_leads')!;
    expect(enFind.description).toMatch(/^Find leads by phone, e-mail or name/);
  });

  it('lists the integrations with their state and reason in words', async () => {
    const a = await account();
    await t.app.db.update(users).set({ lang: 'en' }).where(eq(users.id, a.accountId));
    const client = await connect(a.principal('read'));
    const { isError, data, result } = await call(client, 'list_integrations');
    expect(isError).toBe(false);
    const list = data.integrations as { id: string; kind: string; state: { code: string; words: string } }[];
    expect(data.total).toBe(3);
    expect(list.find((i) => i.id === a.source.id)).toMatchObject({
      name: 'Site form',
      type: 'webhook',
      state: { code: 'working', words: 'Working', reason: null },
      destinations: [{ id: a.http }, { id: a.crm }],
    });
    // The text is for clients that read no structured content: the same data.
    expect((result.content as { type: string; text: string }[])[0]!.text).toContain('Integrations: 3');
  });

  it('traces a lead that went to two destinations: one delivered, one failed with its attempt', async () => {
    const a = await account();
    dest.failNext({ kind: 'permanent', status: 422 });
    const hookId = await a.post({ name: 'Olena Kovalenko', phone: '067 123 45 67', email: 'Olena@Example.com' });
    await a.post({ name: 'Taras', phone: '0501112233' });
    await t.app.deliveryWorker.drain();
    const client = await connect(a.principal('read'));

    // The phone as a person writes it finds the lead stored in E.164.
    const byPhone = await call(client, 'find_leads', { query: '+38 (067) 123-45-67' });
    expect(byPhone.isError).toBe(false);
    expect(byPhone.data.query).toEqual({ by: 'phone', value: '+380671234567' });
    const [lead] = leadsOf(byPhone.data);
    expect(leadsOf(byPhone.data)).toHaveLength(1);
    expect(lead).toMatchObject({
      hookId,
      isTest: false,
      status: { code: 'partial', words: 'Доставлено частково' },
      lead: { name: 'Olena Kovalenko', phone: '+380671234567' },
    });
    const byDestination = new Map(lead!.deliveries.map((d) => [d.destination.id, d]));
    expect(byDestination.get(a.http)).toMatchObject({
      status: { code: 'delivered', words: 'Доставлено' },
      attempts: 1,
      lastError: null,
      attemptsLog: [{ number: 1, outcome: 'ok' }],
    });
    expect(byDestination.get(a.crm)).toMatchObject({
      status: { code: 'failed', words: 'Помилка' },
      attempts: 1,
      lastError: { code: 'HTTP_4XX' },
      attemptsLog: [{ number: 1, outcome: 'permanent', httpStatus: 422 }],
    });
    expect(byDestination.get(a.crm)!.lastError!.words).toMatch(/Сервер відхилив запит/);
    expect(
      emulator.records.filter((r) => (r.body as { lead?: { name?: string } }).lead?.name === 'Olena Kovalenko'),
    ).toHaveLength(1);

    // By e-mail in any case, and by part of the name.
    expect(
      leadsOf((await call(client, 'find_leads', { query: 'olena@example.COM' })).data).map((l) => l.hookId),
    ).toEqual([hookId]);
    expect(leadsOf((await call(client, 'find_leads', { query: 'kovalenko' })).data).map((l) => l.hookId)).toEqual([
      hookId,
    ]);
    expect(leadsOf((await call(client, 'find_leads', { query: 'nobody' })).data)).toEqual([]);
  });

  it('resends the failed delivery, which is then delivered, and audits it with the key name', async () => {
    const a = await account();
    dest.failNext({ kind: 'permanent', status: 422 });
    await a.post({ name: 'Retry me', phone: '0931234567' });
    await t.app.deliveryWorker.drain();
    const client = await connect(a.principal('write'), a.user.login);
    const failed = leadsOf((await call(client, 'find_leads', { query: '0931234567' })).data)[0]!.deliveries.find(
      (d) => d.destination.id === a.crm,
    )!;
    expect(failed.status.code).toBe('failed');

    const resent = await call(client, 'resend_delivery', { deliveryId: failed.id });
    expect(resent.isError).toBe(false);
    expect(resent.data).toMatchObject({ deliveryId: failed.id, status: { code: 'pending', words: 'Очікує' } });
    await t.app.deliveryWorker.drain();
    const [lead] = leadsOf((await call(client, 'find_leads', { query: '0931234567' })).data);
    expect(lead!.status.code).toBe('delivered');
    expect(lead!.deliveries.find((d) => d.id === failed.id)).toMatchObject({
      status: { code: 'delivered' },
      attempts: 2,
      attemptsLog: [{ outcome: 'permanent' }, { outcome: 'ok' }],
    });
    const [entry] = await t.app.db.select().from(auditLog).where(eq(auditLog.targetId, failed.id));
    expect(entry).toMatchObject({
      action: 'delivery.resend',
      actorId: a.accountId,
      actorLogin: a.user.login,
      details: { via: 'mcp', apiKey: { name: 'Claude on the laptop' } },
    });

    // A delivered one is not resent: the API's key, and the reason in words.
    const again = await call(client, 'resend_delivery', { deliveryId: failed.id });
    expect(again.isError).toBe(true);
    expect(again.data.error).toMatchObject({ code: 'OPERATION_NOT_SUPPORTED', statusCode: 400 });
    expect(again.data.error!.message).toMatch(/лише надсилання зі статусом «Помилка»/);
  });

  it('sends a test lead into a source: delivered to both destinations and marked as a test', async () => {
    const a = await account();
    const client = await connect(a.principal('write'), a.user.login);
    const sent = await call(client, 'send_test_lead', {
      integrationId: a.source.id,
      fields: { phone: '0661234567' },
    });
    expect(sent.isError).toBe(false);
    expect(sent.data).toMatchObject({ integrationId: a.source.id, status: { code: 'pending', words: 'Очікує' } });
    await t.app.deliveryWorker.drain();
    const [lead] = leadsOf((await call(client, 'find_leads', { query: '0661234567' })).data);
    expect(lead).toMatchObject({
      hookId: sent.data.hookId,
      isTest: true,
      status: { code: 'delivered' },
      lead: { name: 'Тестовий лід', phone: '+380661234567' },
    });
    expect(lead!.deliveries.map((d) => d.status.code)).toEqual(['delivered', 'delivered']);
    expect(await t.app.db.select().from(auditLog).where(eq(auditLog.targetId, a.source.id))).toMatchObject([
      { action: 'integration.test-lead', details: { apiKey: { name: 'Claude on the laptop' } } },
    ]);

    // Each test lead is a new lead, never a repeat of the last one.
    const second = await call(client, 'send_test_lead', {
      integrationId: a.source.id,
      fields: { phone: '0661234567' },
    });
    expect(second.data.status).toMatchObject({ code: 'pending' });
    // A destination takes no leads.
    const intoDestination = await call(client, 'send_test_lead', { integrationId: a.crm });
    expect(intoDestination.data.error).toMatchObject({ code: 'OPERATION_NOT_SUPPORTED' });
  });

  it('a read-only key cannot resend nor send a test lead: API_KEY_SCOPE, nothing changed', async () => {
    const a = await account();
    dest.failNext({ kind: 'permanent', status: 422 });
    await a.post({ name: 'Stay failed', phone: '0951234567' });
    await t.app.deliveryWorker.drain();
    const client = await connect(a.principal('read'));
    const failed = leadsOf((await call(client, 'find_leads', { query: '0951234567' })).data)[0]!.deliveries.find(
      (d) => d.status.code === 'failed',
    )!;

    const resend = await call(client, 'resend_delivery', { deliveryId: failed.id });
    expect(resend.isError).toBe(true);
    expect(resend.data.error).toEqual({
      code: 'API_KEY_SCOPE',
      statusCode: 403,
      message: 'Цей API-ключ лише для читання: змінювати дані він не може',
    });
    expect((resend.result.content as { text: string }[])[0]!.text).toMatch(/^API_KEY_SCOPE: /);
    const testLead = await call(client, 'send_test_lead', { integrationId: a.source.id });
    expect(testLead.data.error).toMatchObject({ code: 'API_KEY_SCOPE' });

    const [row] = await t.app.db.select().from(deliveries).where(eq(deliveries.id, failed.id));
    expect(row!.status).toBe('failed');
    expect(await t.app.db.select().from(auditLog).where(eq(auditLog.actorId, a.accountId))).toEqual([]);
  });

  it("a key of one account never reaches another account's data", async () => {
    const a = await account();
    const b = await account();
    dest.failNext({ kind: 'permanent', status: 422 });
    await a.post({ name: 'Private', phone: '0971234567' });
    await t.app.deliveryWorker.drain();
    const ofA = await connect(a.principal('read'));
    const failedOfA = leadsOf((await call(ofA, 'find_leads', { query: '0971234567' })).data)[0]!.deliveries.find(
      (d) => d.status.code === 'failed',
    )!;

    const ofB = await connect(b.principal('write'));
    expect(leadsOf((await call(ofB, 'find_leads', { query: '0971234567' })).data)).toEqual([]);
    const listed = (await call(ofB, 'list_integrations')).data.integrations as { id: string }[];
    expect(listed.map((i) => i.id)).not.toContain(a.source.id);
    expect((await call(ofB, 'resend_delivery', { deliveryId: failedOfA.id })).data.error).toMatchObject({
      code: 'HOOK_NOT_FOUND',
      statusCode: 404,
    });
    expect((await call(ofB, 'resend_delivery', { deliveryId: 'not-a-uuid' })).data.error).toMatchObject({
      code: 'HOOK_NOT_FOUND',
    });
    for (const integrationId of [a.source.id, randomUUID(), 'x']) {
      expect((await call(ofB, 'send_test_lead', { integrationId })).data.error).toMatchObject({
        code: 'INTEGRATION_NOT_FOUND',
        statusCode: 404,
      });
    }
    expect((await call(ofB, 'speed_report', { integrationId: a.source.id })).data.error).toMatchObject({
      code: 'INTEGRATION_NOT_FOUND',
    });
    const [row] = await t.app.db.select().from(deliveries).where(eq(deliveries.id, failedOfA.id));
    expect(row!.status).toBe('failed');
  });

  it('refuses arguments that do not fit a tool with the API keys, before the tool runs', async () => {
    const a = await account();
    const client = await connect(a.principal('write'));
    const textOf = async (name: string, args: Record<string, unknown>) => {
      const { isError, result } = await call(client, name, args);
      expect(isError).toBe(true);
      return (result.content as { text: string }[])[0]!.text;
    };
    expect(await textOf('find_leads', {})).toMatch(/REQUIRED/);
    expect(await textOf('find_leads', { query: '   ' })).toMatch(/REQUIRED/);
    expect(await textOf('find_leads', { query: 'x'.repeat(201) })).toMatch(/MAX_LENGTH_200/);
    expect(await textOf('find_leads', { query: 'Olena', limit: 'all' })).toMatch(/INVALID_TYPE/);
    expect(await textOf('speed_report', { days: 93 })).toMatch(/VALIDATION_ERROR/);
    expect(
      await textOf('send_test_lead', { integrationId: a.source.id, fields: { phone: '1', city: 'Kyiv' } }),
    ).toMatch(/VALIDATION_ERROR/);
    // Nothing was sent.
    expect(await t.app.db.select().from(auditLog).where(eq(auditLog.actorId, a.accountId))).toEqual([]);
  });

  it('reports speed to lead, the guardian alerts and the plan with its usage', async () => {
    const a = await account();
    await a.post({ name: 'Counted', phone: '0991234567' });
    await t.app.deliveryWorker.drain();
    const client = await connect(a.principal('read'));

    const speed = await call(client, 'speed_report', { days: 7, integrationId: a.source.id });
    expect(speed.isError).toBe(false);
    expect(speed.data).toMatchObject({ total: { leads: 1, reacted: 0, neverTaken: 1 } });
    expect((speed.data.byIntegration as { integration: { _id: string } }[])[0]!.integration._id).toBe(a.source.id);

    const alerts = await call(client, 'guardian_alerts', { openOnly: true });
    expect(alerts.data).toEqual({ open: 0, alerts: [] });

    const plan = await call(client, 'plan_and_usage');
    expect(plan.data).toMatchObject({
      plan: { id: null, title: 'Демо' },
      demo: true,
      active: true,
      limits: { leadsPerMonth: 3000, integrations: 10 },
      usage: { leadsThisMonth: 1, integrations: 3, destinationsPerSource: 2 },
    });
  });
});
