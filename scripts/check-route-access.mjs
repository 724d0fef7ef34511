#!/usr/bin/env node
// House style: every route writes its access on itself, `config: { access: 'client' }`, never a
// shared constant (whose name meant different things in different files). The server's start-up
// check makes sure every route has one; this keeps the one style. Part of `npm run lint`.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('../apps/server/src/', import.meta.url).pathname;
const files = readdirSync(root, { recursive: true }).filter((f) => String(f).endsWith('.routes.ts'));
// A route option `config` that is shorthand (`config,`) or anything but an object literal with access first.
const notLiteral = /(?<![.\w])config(?:\s*[,}]|\s*:(?!\s*\{\s*access:\s*'(?:public|client|privileged|owner)'))/g;
const problems = [];
for (const file of files) {
  const text = readFileSync(join(root, String(file)), 'utf8');
  for (const match of text.matchAll(notLiteral)) {
    const line = text.slice(0, match.index).split('\n').length;
    problems.push(`apps/server/src/${file}:${line}: write the access on the route: config: { access: '…' }`);
  }
}
if (problems.length) {
  console.error(problems.join('\n'));
  process.exit(1);
}
console.info(`route access: ${files.length} route files, every route writes its access on itself`);
