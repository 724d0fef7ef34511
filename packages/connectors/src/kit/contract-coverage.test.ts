// Every destination in the registry runs the contract suite against its emulator (issue 29): a new
// connector that forgets it fails here, not in production.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { connectors } from '../index';

const src = join(import.meta.dirname, '..');

/** The connectors whose tests call describeConnectorContract('<slug>…', …): the name's first word. */
function contractRuns(): Set<string> {
  const names = new Set<string>();
  for (const folder of readdirSync(src, { withFileTypes: true })) {
    if (!folder.isDirectory()) continue;
    for (const file of readdirSync(join(src, folder.name))) {
      if (!file.endsWith('.test.ts')) continue;
      const text = readFileSync(join(src, folder.name, file), 'utf8');
      for (const m of text.matchAll(/describeConnectorContract\(\s*['`]([a-z0-9-]+)/g)) names.add(m[1] as string);
    }
  }
  return names;
}

describe('the contract suite', () => {
  it('runs for every destination connector in the registry', () => {
    const destinations = [...connectors.values()].filter((c) => c.kind === 'destination').map((c) => c.slug);
    expect(destinations.length).toBeGreaterThan(5);
    const runs = contractRuns();
    expect(destinations.filter((slug) => !runs.has(slug))).toEqual([]);
  });
});
