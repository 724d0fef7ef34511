// The list of modules and what env.ts makes of their settings (docs/adr/012-module-descriptors.md).
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { APP_MODULES } from './app-modules';
import { readEnv } from './env';
import { defineSettings } from './lib/env-settings';
import { deliveryParts } from './modules/server-module';

describe('the modules list', () => {
  it('names each module once', () => {
    const names = APP_MODULES.map((m) => m.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it("reads a module's keys beside the server's, and refuses a key two modules declare", () => {
    const shout = defineSettings({
      keys: { SHOUT_TIMES: z.coerce.number().int().min(1).default(2) },
      read: (e, server) => ({ shout: { times: e.SHOUT_TIMES, at: server.publicUrl } }),
    });
    const env = readEnv({ SHOUT_TIMES: '3', PORT: '8080' }, [{ settings: shout }]);
    expect(env.shout).toEqual({ times: 3, at: 'http://localhost:8080' });
    expect(env.port).toBe(8080);
    expect(() => readEnv({ SHOUT_TIMES: '0' }, [{ settings: shout }])).toThrow(/SHOUT_TIMES/);
    expect(() => readEnv({}, [{ settings: shout }, { settings: shout }])).toThrow('SHOUT_TIMES is declared twice');
    expect(() => readEnv({}, [{ settings: defineSettings({ keys: { PORT: z.string() }, read: () => ({}) }) }])).toThrow(
      'PORT is declared twice',
    );
  });
});

describe("the delivery worker's parts", () => {
  const ctx = {} as Parameters<typeof deliveryParts>[1];
  const calls: string[] = [];
  const enrich = async () => ({ chat: 1 });
  const chats = {
    delivery: () => ({ contexts: { 'manager-chat': { enrich, record: async () => void calls.push('card') } } }),
  };
  const records = {
    delivery: () => ({
      recorders: { sms: async () => void calls.push('sms'), chat: async () => void calls.push('own') },
    }),
  };

  it('gives a delivery context to each connector that declares it, and to no other', () => {
    const parts = deliveryParts([records, chats], ctx, [
      { slug: 'chat', deliveryContext: 'manager-chat' },
      { slug: 'sms' },
      { slug: 'fax', deliveryContext: 'nobody-provides-this' },
    ]);
    expect(Object.keys(parts.enrichers)).toEqual(['chat']);
    expect(parts.enrichers.chat).toBe(enrich);
    expect(Object.keys(parts.recorders).sort()).toEqual(['chat', 'sms']);
  });

  it("runs the type's own recorder, then its context's, in the result's transaction", async () => {
    const parts = deliveryParts([records, chats], ctx, [{ slug: 'chat', deliveryContext: 'manager-chat' }]);
    calls.length = 0;
    const args = [{}, {}, {}] as Parameters<(typeof parts.recorders)[string]>;
    await parts.recorders.chat?.(...args);
    expect(calls).toEqual(['own', 'card']);
  });

  it("the Telegram destination gets the manager bot's context from the modules as listed", () => {
    const parts = deliveryParts(APP_MODULES, ctx);
    expect(Object.keys(parts.enrichers)).toEqual(['telegram']);
    expect(parts.recorders.telegram).toBeTypeOf('function');
    // A type is data: a name like __proto__ or constructor finds nothing.
    for (const name of ['__proto__', 'constructor', 'toString'])
      expect(Reflect.get(parts.enrichers, name)).toBeUndefined();
  });
});
