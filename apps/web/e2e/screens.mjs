#!/usr/bin/env node
// `npm run screens` (after the web build): the end-to-end specs that check screens (those that use
// support/screens.ts), run with SCREENS=1 so that each checked screen, in Ukrainian and English, on
// a phone (375 px) and a desktop (1440 px), is saved as a PNG; then says where they are. For a
// person to look at before a change of the UI lands. `npm test` runs the same checks without them.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const e2e = fileURLToPath(new URL('.', import.meta.url));
const web = fileURLToPath(new URL('..', import.meta.url));
const out = fileURLToPath(new URL('../../../test-results/screens/', import.meta.url));

const specs = readdirSync(e2e)
  .filter((name) => name.endsWith('.spec.ts'))
  .filter((name) => readFileSync(`${e2e}${name}`, 'utf8').includes("from './support/screens'"))
  .sort();

const run = spawnSync(
  'npx',
  ['playwright', 'test', '--config', 'playwright.config.ts', '--reporter=list', ...specs.map((s) => `e2e/${s}`)],
  { cwd: web, stdio: 'inherit', env: { ...process.env, SCREENS: '1' } },
);

let pngs = [];
try {
  pngs = readdirSync(out).filter((name) => name.endsWith('.png'));
} catch {
  // none written
}
console.info(`\n${pngs.length} screens (${specs.join(', ')}) in ${out}`);
process.exit(run.status ?? 1);
