// The list of modules and what env.ts makes of their settings (docs/adr/012-module-descriptors.md).
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { APP_MODULES } from './app-modules';
import { readEnv } from './env';
import { defineSettings } from './lib/env-settings';

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
