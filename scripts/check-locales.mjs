#!/usr/bin/env node
// Fails when the Ukrainian and English locale files differ in their keys: the web's
// (apps/web/src/locales/{uk,en}/<namespace>.json) and each connector's words
// (packages/connectors/src/<slug>/words/{uk,en}.json, words/codes/, words/mail/ and words/mail/connection/{uk,en}.json). Plural suffixes are compared by base key,
// since Ukrainian needs _one/_few/_many/_other where English has _one/_other.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = new URL('../apps/web/src/locales/', import.meta.url).pathname;
const connectors = new URL('../packages/connectors/src/', import.meta.url).pathname;
const PLURAL = /_(zero|one|two|few|many|other)$/;

function keys(obj, prefix = '') {
  return Object.entries(obj).flatMap(([k, v]) =>
    v && typeof v === 'object' ? keys(v, `${prefix}${k}.`) : [`${prefix}${k}`.replace(PLURAL, '')],
  );
}

let problems = 0;
let compared = 0;

/** Compares one file's uk and en keys; `name(lang)` says where each is, for the messages. */
function compare(pathOf, name) {
  const read = (lang) =>
    existsSync(pathOf(lang)) ? new Set(keys(JSON.parse(readFileSync(pathOf(lang), 'utf8')))) : null;
  const uk = read('uk');
  const en = read('en');
  compared++;
  if (!uk || !en) {
    console.error(`locales: ${name('uk')} and ${name('en')}: one of them is missing`);
    problems++;
    return;
  }
  const missing = [...[...uk].filter((k) => !en.has(k)).map((k) => `${name('en')} lacks ${k}`)];
  missing.push(...[...en].filter((k) => !uk.has(k)).map((k) => `${name('uk')} lacks ${k}`));
  for (const m of missing) console.error(`locales: ${m}`);
  problems += missing.length;
}

if (existsSync(dir)) {
  const files = new Set([...readdirSync(join(dir, 'uk')), ...readdirSync(join(dir, 'en'))]);
  for (const file of files)
    compare(
      (lang) => join(dir, lang, file),
      (lang) => `${lang}/${file}`,
    );
}
if (existsSync(connectors)) {
  for (const folder of readdirSync(connectors, { withFileTypes: true })) {
    const words = join(connectors, folder.name, 'words');
    if (!folder.isDirectory() || !existsSync(words)) continue;
    compare(
      (lang) => join(words, `${lang}.json`),
      (lang) => `packages/connectors/src/${folder.name}/words/${lang}.json`,
    );
    // The words of its codes (kit/codes.ts): a screen's (errors, reasons) and the mail's, files of their own.
    for (const part of ['codes', 'mail', 'mail/connection']) {
      if (!existsSync(join(words, part))) continue;
      compare(
        (lang) => join(words, part, `${lang}.json`),
        (lang) => `packages/connectors/src/${folder.name}/words/${part}/${lang}.json`,
      );
    }
  }
}
if (problems) process.exit(1);
console.info(`locales: uk and en have the same keys in ${compared} files`);
