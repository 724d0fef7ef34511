#!/usr/bin/env node
// The first-load budget (issue 17 part 8): the gzipped JavaScript a page needs before it shows,
// read from the web build's manifest (apps/web/dist/.vite/manifest.json, vite `build.manifest`).
// A page needs the entry (index.html's script and everything it imports statically, which is also
// what index.html modulepreloads), its layout, its page and the language bundle, each with their
// static imports. `npm test` runs it after the web build; `node scripts/bundle-budget.mjs` prints
// the table and exits 1 above a budget.
// What a page loads after it shows (the dashboard's chart and recent leads' table, antd's message,
// notification and modal, socket.io, the account area's other strings) is not part of it.
// `budget` is what the check enforces: issue 17's budget (250 KB /signin, 350 KB dashboard), met
// since /signin is plain markup without antd and the dashboard's cards are (docs/benchmarks.md,
// "First load").
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const KB = 1024;

/** What each measured page loads (manifest keys, i.e. source paths), and its budget. */
export const PAGES = [
  {
    name: '/signin',
    budget: 250 * KB,
    modules: ['src/app/layouts/admin-layout.tsx', 'src/features/auth/pages/signin-page.tsx', 'src/locales/uk-start.ts'],
  },
  {
    name: '/admin (dashboard)',
    budget: 350 * KB,
    modules: [
      'src/app/layouts/default-layout.tsx',
      'src/features/dashboard/pages/dashboard-page.tsx',
      'src/locales/uk-start.ts',
      'src/locales/uk-dashboard.ts',
    ],
  },
];

/** The manifest's entry key (index.html) plus `modules`, closed over static imports. */
export function closure(manifest, modules) {
  const entry = Object.keys(manifest).find((key) => manifest[key].isEntry);
  if (!entry) throw new Error('the manifest has no entry');
  const seen = new Set();
  const visit = (key) => {
    if (seen.has(key)) return;
    const chunk = manifest[key];
    if (!chunk) throw new Error(`${key} is not in the build's manifest: update PAGES in scripts/bundle-budget.mjs`);
    seen.add(key);
    for (const next of chunk.imports ?? []) visit(next);
  };
  for (const key of [entry, ...modules]) visit(key);
  return [...new Set([...seen].map((key) => manifest[key].file).filter((file) => file.endsWith('.js')))];
}

/** Gzipped size of each page's JavaScript in `dist`. */
export function measure(dist, pages = PAGES) {
  const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8'));
  const gz = new Map();
  const size = (file) => {
    if (!gz.has(file)) gz.set(file, gzipSync(readFileSync(join(dist, file))).length);
    return gz.get(file);
  };
  return pages.map((page) => {
    const files = closure(manifest, page.modules);
    const bytes = files.reduce((sum, file) => sum + size(file), 0);
    return { ...page, files, bytes, ok: bytes <= page.budget };
  });
}

if (process.argv[1] === import.meta.filename) {
  const dist = join(import.meta.dirname, '../apps/web/dist');
  const results = measure(dist);
  for (const r of results) {
    const kb = (n) => `${(n / KB).toFixed(1)} KB`;
    console.info(
      `${r.ok ? 'ok  ' : 'OVER'} ${r.name}: ${kb(r.bytes)} gzipped JS in ${r.files.length} files ` +
        `(budget ${kb(r.budget)}, issue 17)`,
    );
  }
  process.exit(results.every((r) => r.ok) ? 0 : 1);
}
