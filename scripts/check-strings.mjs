#!/usr/bin/env node
// Every word a Ukrainian page can show is in the Ukrainian locale files (issue 17 part 3). Part of
// `npm run lint`; fails, with file:line and what to do, when the web app (apps/web/src, tests aside):
//  1. uses a translation key the uk files lack (the web's locales, and every connector's words,
//     packages/connectors/src/<slug>/words/uk.json, as connectors:<slug>.<key>): t('ns:key'), t('key') in the namespace of the
//     component's useTranslation, <Trans i18nKey>, and the finite dynamic keys the types tell
//     (`status.${s}` with a union, as-const maps and arrays). The keys come from i18next-cli's
//     extractor, not from a hand-written scan;
//  2. writes words in JSX text or a visible prop (title, placeholder, aria-label, alt, label,
//     okText, cancelText, message, description, ...) instead of a t() call. i18next-cli's linter
//     finds them; the product and service names of docs/glossary.md (apps/web/src/locales/names.json,
//     and a connector's own in packages/connectors/src/<slug>/names.json)
//     and technical tokens (an address, a field path, a sample ID) pass;
//  3. shows a text the server sent as it came: a response field such as `reason`, `message`,
//     `error`, `detail`, `lastError` put in JSX, a visible prop or a message/notification, or given
//     as the fallback of a translation, without going through a helper that translates its code
//     (lib/integrations/reasons.ts, lib/errors.ts). A line that must show one (an operator's error
//     log) says so with `// i18n-raw: <why>` on it or on the line above.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { findKeys, runLinter } from 'i18next-cli';
import { parseSource, walk } from './ast-walk.mjs';

const root = resolve(new URL('..', import.meta.url).pathname);

/** Props whose text a person reads (screen readers included). */
export const VISIBLE_PROPS = [
  'title',
  'placeholder',
  'aria-label',
  'alt',
  'label',
  'okText',
  'cancelText',
  'message',
  'description',
  'tooltip',
  'content',
  'extra',
  'help',
  'subTitle',
  'emptyText',
  'addonBefore',
  'addonAfter',
  'checkedChildren',
  'unCheckedChildren',
];

/** Fields of a server response that carry its own words. */
const SERVER_TEXT = new Set([
  'reason',
  'statusReason',
  'message',
  'serverMessage',
  'error',
  'errorMessage',
  'detail',
  'details',
  'lastError',
]);

/** A single token of a technical kind: an address, a host, a field path, a code sample, a phone. */
const TECHNICAL = /^(?:[^\s]*[\d._@:/+-][^\s]*|\+?[\d\s()-]+)$/;

/** The glossary's names and tokens (locales/names.json) and each connector's own names (<slug>/names.json). */
export function readNames(locales, connectors) {
  const { names, tokens } = JSON.parse(readFileSync(join(locales, 'names.json'), 'utf8'));
  const own = [];
  if (connectors && existsSync(connectors)) {
    for (const folder of readdirSync(connectors, { withFileTypes: true })) {
      const file = join(connectors, folder.name, 'names.json');
      if (folder.isDirectory() && existsSync(file)) own.push(...JSON.parse(readFileSync(file, 'utf8')).names);
    }
  }
  return new Set([...names, ...own, ...tokens]);
}

/** The connectors' folders that have words: [slug, words folder]. */
export function connectorWordFolders(connectors) {
  if (!connectors || !existsSync(connectors)) return [];
  return readdirSync(connectors, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(connectors, d.name, 'words')))
    .map((d) => [d.name, join(connectors, d.name, 'words')]);
}

function ukKeys(locales, connectors) {
  const have = new Set();
  const flat = (obj, prefix, ns) => {
    for (const [k, v] of Object.entries(obj)) {
      if (v && typeof v === 'object') {
        have.add(`${ns}:${prefix}${k}`); // t() with returnObjects reads a whole branch
        flat(v, `${prefix}${k}.`, ns);
      } else have.add(`${ns}:${prefix}${k}`);
    }
  };
  const dir = join(locales, 'uk');
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
    flat(JSON.parse(readFileSync(join(dir, file), 'utf8')), '', file.replace(/\.json$/, ''));
  }
  // A connector's words are the namespace `connectors` under its folder's name (ADR 014).
  for (const [slug, words] of connectorWordFolders(connectors)) {
    // Its page's words and its codes' words (words/codes: errors, reasons, mail).
    for (const uk of [join(words, 'uk.json'), join(words, 'codes', 'uk.json')]) {
      if (existsSync(uk)) flat({ [slug]: JSON.parse(readFileSync(uk, 'utf8')) }, '', 'connectors');
    }
  }
  return have;
}

const quiet = { info() {}, warn() {}, error() {} };

function config(src, locales) {
  return {
    locales: ['uk', 'en'],
    extract: {
      input: [`${src}/**/*.{ts,tsx}`],
      ignore: [`${src}/**/*.test.{ts,tsx}`, `${src}/test/**`],
      output: `${locales}/{{language}}/{{namespace}}.json`,
      defaultNS: 'common',
      nsSeparator: ':',
      keySeparator: '.',
      functions: ['t', '*.t'],
      transComponents: ['Trans'],
    },
    lint: {
      acceptedTags: 'all',
      acceptedAttributes: VISIBLE_PROPS,
      ignoredTags: ['code', 'pre', 'kbd'],
      checkInterpolationParams: true,
      checkConcatenation: 'off',
    },
  };
}

/** The file a missing key belongs in: the web's namespace file, or a connector's own words. */
const whereKeyGoes = (ns, id) =>
  ns === 'connectors'
    ? `packages/connectors/src/${id.slice('connectors:'.length).split('.')[0]}/words/uk.json`
    : `locales/uk/${ns}.json`;

/** 1: keys the code uses that the uk files lack. */
async function missingKeys(src, locales, connectors, rel) {
  const have = ukKeys(locales, connectors);
  const { allKeys } = await findKeys(config(src, locales), quiet);
  const problems = [];
  for (const [id, key] of allKeys) {
    if (have.has(id)) continue;
    for (const at of key.locations ?? [{ file: '?', line: 0 }]) {
      problems.push({
        file: rel(at.file),
        line: at.line ?? 0,
        message: `the key ${id} is not in the Ukrainian locale files: add it to ${whereKeyGoes(key.ns || 'common', id)} (and en), or fix the key`,
      });
    }
  }
  return problems;
}

/** 2: words written in the markup. */
async function hardcoded(src, locales, connectors, rel) {
  const names = readNames(locales, connectors);
  const result = await runLinter(config(src, locales));
  const problems = [];
  for (const [file, issues] of Object.entries(result.files)) {
    for (const issue of issues) {
      if ((issue.severity ?? 'error') !== 'error') continue;
      const text = issue.text.trim();
      if (issue.type === 'hardcoded' && (names.has(text) || TECHNICAL.test(text) || !/\p{L}/u.test(text))) continue;
      problems.push({
        file: rel(file),
        line: issue.line,
        message:
          issue.type === 'hardcoded'
            ? `"${text}" is written in the markup: put it in the locale files (uk and en) and show t('…'); a product name goes in docs/glossary.md and locales/names.json`
            : `${issue.text}: give t() the parameters its text uses`,
      });
    }
  }
  return problems;
}

// --- 3: server text shown as it came -------------------------------------------------------------

const MESSAGE_APIS = new Set(['message', 'notification', 'modal', 'Modal']);
const isTCall = (node) =>
  node?.type === 'CallExpression' &&
  ((node.callee.type === 'Identifier' && node.callee.value === 't') ||
    (node.callee.type === 'MemberExpression' && node.callee.property.value === 't'));

/** The server-text expressions an expression shows as they are (through ?:, ||, `${}`, +). */
function rawParts(node, out = []) {
  if (!node) return out;
  switch (node.type) {
    case 'MemberExpression':
      if (node.property.type === 'Identifier' && SERVER_TEXT.has(node.property.value)) out.push(node);
      break;
    case 'OptionalChainingExpression':
      rawParts(node.base, out);
      break;
    case 'Identifier':
      if (SERVER_TEXT.has(node.value)) out.push(node);
      break;
    case 'ConditionalExpression':
      rawParts(node.consequent, out);
      rawParts(node.alternate, out);
      break;
    case 'BinaryExpression':
      if (['||', '??', '+'].includes(node.operator)) {
        rawParts(node.left, out);
        rawParts(node.right, out);
      } else if (node.operator === '&&') rawParts(node.right, out);
      break;
    case 'ParenthesisExpression':
    case 'TsAsExpression':
    case 'TsNonNullExpression':
    case 'TsSatisfiesExpression':
      rawParts(node.expression, out);
      break;
    case 'TemplateLiteral':
      for (const e of node.expressions) rawParts(e, out);
      break;
    case 'CallExpression':
      // String(x) and x.trim() show x as it is; any other call is a helper that decides.
      if (node.callee.type === 'Identifier' && node.callee.value === 'String')
        rawParts(node.arguments[0]?.expression, out);
      if (node.callee.type === 'MemberExpression' && ['trim', 'toString', 'slice'].includes(node.callee.property.value))
        rawParts(node.callee.object, out);
      break;
    default:
  }
  return out;
}

/** A translation with a raw fallback: `exists(key) ? t(key) : reason`, `t(key, { defaultValue: x.reason })`. */
function fallbackParts(node) {
  const out = [];
  if (node.type === 'ConditionalExpression') {
    const [a, b] = [node.consequent, node.alternate];
    if (isTCall(a)) rawParts(b, out);
    if (isTCall(b)) rawParts(a, out);
  } else if (node.type === 'BinaryExpression' && ['||', '??'].includes(node.operator) && isTCall(node.left)) {
    rawParts(node.right, out);
  } else if (isTCall(node)) {
    const options = node.arguments[1]?.expression;
    if (options?.type === 'ObjectExpression') {
      for (const p of options.properties) {
        if (p.type === 'KeyValueProperty' && (p.key.value ?? p.key.raw) === 'defaultValue') rawParts(p.value, out);
      }
    }
  }
  return out;
}

function sourceFiles(dir) {
  return readdirSync(dir, { recursive: true })
    .map(String)
    .filter((f) => /\.(ts|tsx)$/.test(f) && !/\.test\.tsx?$/.test(f) && !/\.d\.ts$/.test(f) && !f.startsWith('test/'))
    .map((f) => join(dir, f));
}

/** 3: where the web shows a server's text as it came. */
function rawServerText(src, rel) {
  const problems = [];
  for (const file of sourceFiles(src)) {
    const code = readFileSync(file, 'utf8');
    let parsed;
    try {
      parsed = parseSource(code, file.endsWith('.tsx'));
    } catch (error) {
      problems.push({ file: rel(file), line: 0, message: `cannot parse: ${error.message}` });
      continue;
    }
    const { ast, lineOf } = parsed;
    const allowed = (line) => parsed.marked(line, 'i18n-raw:');
    const flag = (parts, where) => {
      for (const part of parts) {
        const line = lineOf(part);
        if (allowed(line)) continue;
        const name = part.type === 'Identifier' ? part.value : part.property.value;
        problems.push({
          file: rel(file),
          line,
          message: `${where} shows the server's \`${name}\` as it came (English, or a raw code): translate its code (reasonText/reasonLabel, errorMessage/translateCode) with errors:UNKNOWN as the fallback, or mark an operator-only line with // i18n-raw: <why>`,
        });
      }
    };
    walk(ast, (node, parent) => {
      if (
        node.type === 'JSXExpressionContainer' &&
        parent &&
        (parent.type === 'JSXElement' || parent.type === 'JSXFragment')
      ) {
        flag(rawParts(node.expression), 'JSX text');
      } else if (node.type === 'JSXAttribute' && node.value?.type === 'JSXExpressionContainer') {
        const name = node.name.type === 'Identifier' ? node.name.value : null;
        if (name && VISIBLE_PROPS.includes(name)) flag(rawParts(node.value.expression), `the ${name} prop`);
      } else if (node.type === 'CallExpression' && node.callee.type === 'MemberExpression') {
        const object = node.callee.object;
        if (object.type === 'Identifier' && MESSAGE_APIS.has(object.value)) {
          for (const arg of node.arguments) {
            const e = arg.expression;
            if (e.type === 'ObjectExpression') {
              for (const p of e.properties) {
                const key = p.type === 'KeyValueProperty' ? (p.key.value ?? p.key.raw) : null;
                if (['content', 'title', 'description', 'message'].includes(key))
                  flag(rawParts(p.value), `${object.value}.${node.callee.property.value}`);
              }
            } else flag(rawParts(e), `${object.value}.${node.callee.property.value}`);
          }
        }
      }
      if (node.type === 'ConditionalExpression' || node.type === 'BinaryExpression' || node.type === 'CallExpression') {
        flag(fallbackParts(node), 'a translation with a raw fallback');
      }
    });
  }
  return problems;
}

/** Every problem of the three checks in a web source folder and its locales folder. */
export async function checkStrings({ src, locales, connectors, cwd = process.cwd() }) {
  const rel = (file) => relative(cwd, resolve(cwd, file));
  const seen = new Set();
  const all = [
    ...(await missingKeys(src, locales, connectors, rel)),
    ...(await hardcoded(src, locales, connectors, rel)),
    ...rawServerText(src, rel),
  ];
  return all
    .filter((p) => {
      const id = `${p.file}:${p.line}:${p.message}`;
      if (seen.has(id)) return false;
      seen.add(id);
      return true;
    })
    .sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const problems = await checkStrings({
    src: join(root, 'apps/web/src'),
    locales: join(root, 'apps/web/src/locales'),
    connectors: join(root, 'packages/connectors/src'),
  });
  for (const p of problems) console.error(`${p.file}:${p.line}: ${p.message}`);
  if (problems.length) {
    console.error(`strings: ${problems.length} place(s) a Ukrainian page could show a word that is not Ukrainian`);
    process.exit(1);
  }
  console.info('strings: every key is in the uk files, no words in the markup, no server text shown as it came');
}
