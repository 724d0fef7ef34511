#!/usr/bin/env node
// Fails when the Ukrainian and English locale files differ in their keys. Plural suffixes are
// compared by base key, since Ukrainian needs _one/_few/_many/_other where English has _one/_other.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = new URL('../apps/web/src/locales/', import.meta.url).pathname;
const PLURAL = /_(zero|one|two|few|many|other)$/;

function keys(obj, prefix = '') {
  return Object.entries(obj).flatMap(([k, v]) =>
    v && typeof v === 'object' ? keys(v, `${prefix}${k}.`) : [`${prefix}${k}`.replace(PLURAL, '')],
  );
}

if (!existsSync(dir)) process.exit(0);
let problems = 0;
const files = new Set([...readdirSync(join(dir, 'uk')), ...readdirSync(join(dir, 'en'))]);
for (const file of files) {
  const read = (lang) => {
    const p = join(dir, lang, file);
    return existsSync(p) ? new Set(keys(JSON.parse(readFileSync(p, 'utf8')))) : null;
  };
  const uk = read('uk');
  const en = read('en');
  if (!uk || !en) {
    console.error(`locales: ${file} exists in only one language`);
    problems++;
    continue;
  }
  const missing = [...[...uk].filter((k) => !en.has(k)).map((k) => `en/${file} lacks ${k}`)];
  missing.push(...[...en].filter((k) => !uk.has(k)).map((k) => `uk/${file} lacks ${k}`));
  for (const m of missing) console.error(`locales: ${m}`);
  problems += missing.length;
}
if (problems) process.exit(1);
console.info(`locales: uk and en have the same keys in ${files.size} files`);
