// The strings the web app ships with (apps/web/src/locales/<code>/<namespace>.json, and every
// connector's words, packages/connectors/src/<slug>/words/<code>.json and words/codes/<code>.json, as the namespace `connectors`
// keyed by the folder: ADR 014), read once at start: the translations screen shows them beside the
// operator's, and the web's i18next backend gets them merged with the operator's overrides
// (docs/translations.md).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ownValue, setOwn } from '@leadrelay/shared';

/** locale → namespace → flat dotted key → text */
export type ShippedStrings = Map<string, Map<string, Map<string, string>>>;

/** apps/web/src/locales, found upwards from this file (src/modules/... in dev, dist/ once built). */
export function findWebLocales(from: string = import.meta.dirname): string | null {
  let dir = from;
  for (let i = 0; i < 8; i++) {
    const candidate = join(dir, 'apps/web/src/locales');
    if (existsSync(candidate)) return candidate;
    const sibling = join(dir, 'web/src/locales');
    if (existsSync(sibling)) return sibling;
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return null;
}

/** The connectors' folders (packages/connectors/src) of the repository whose web locales are `localesDir`. */
export function findConnectorsDir(localesDir: string | null): string | null {
  if (!localesDir) return null;
  const dir = join(localesDir, '../../../../packages/connectors/src');
  return existsSync(dir) ? dir : null;
}

export function flatten(value: unknown, prefix = '', out = new Map<string, string>()): Map<string, string> {
  if (typeof value === 'string') out.set(prefix, value);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
  }
  return out;
}

export function unflatten(entries: Iterable<[string, string]>): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [key, text] of entries) {
    const parts = key.split('.');
    let node = root;
    // Key parts are data: `a.__proto__.b` must not walk into (and write on) Object.prototype.
    for (const part of parts.slice(0, -1)) {
      const next = ownValue(node, part);
      if (!next || typeof next !== 'object') setOwn(node, part, {});
      node = ownValue(node, part) as Record<string, unknown>;
    }
    setOwn(node, parts.at(-1) as string, text);
  }
  return root;
}

const readJson = (file: string): unknown => JSON.parse(readFileSync(file, 'utf8'));

export function loadShippedStrings(dir: string | null, connectorsDir = findConnectorsDir(dir)): ShippedStrings {
  const strings: ShippedStrings = new Map();
  if (!dir || !existsSync(dir)) return strings;
  for (const locale of readdirSync(dir, { withFileTypes: true })) {
    if (!locale.isDirectory()) continue;
    const namespaces = new Map<string, Map<string, string>>();
    for (const file of readdirSync(join(dir, locale.name))) {
      if (!file.endsWith('.json')) continue;
      namespaces.set(file.slice(0, -5), flatten(readJson(join(dir, locale.name, file))));
    }
    strings.set(locale.name, namespaces);
  }
  addConnectorWords(strings, connectorsDir);
  return strings;
}

/**
 * Each connector folder's words/<locale>.json and the words of its codes, words/codes/<locale>.json
 * (errors, reasons, mail), under `connectors`, their keys prefixed with the folder's name.
 */
function addConnectorWords(strings: ShippedStrings, connectorsDir: string | null): void {
  if (!connectorsDir) return;
  for (const folder of readdirSync(connectorsDir, { withFileTypes: true })) {
    if (!folder.isDirectory()) continue;
    for (const words of [join(connectorsDir, folder.name, 'words'), join(connectorsDir, folder.name, 'words/codes')]) {
      if (!existsSync(words)) continue;
      for (const file of readdirSync(words)) {
        if (!file.endsWith('.json')) continue;
        const locale = file.slice(0, -5);
        const namespaces = strings.get(locale) ?? new Map<string, Map<string, string>>();
        strings.set(locale, namespaces);
        const connectors = namespaces.get('connectors') ?? new Map<string, string>();
        namespaces.set('connectors', connectors);
        flatten(readJson(join(words, file)), folder.name, connectors);
      }
    }
  }
}
