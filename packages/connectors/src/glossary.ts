// Test-only entry ('@leadrelay/connectors/glossary', Node: it reads files): the names every
// connector's words may show as they are (docs/glossary.md: each folder's names.json), and a pattern
// (names-pattern.ts) that finds any of them as whole words.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export { namesPattern } from './names-pattern';

const folders = import.meta.dirname;

/** Every connector's own names (packages/connectors/src/<slug>/names.json). */
export function connectorNames(): string[] {
  return readdirSync(folders, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => join(folders, d.name, 'names.json'))
    .filter((file) => existsSync(file))
    .flatMap((file) => (JSON.parse(readFileSync(file, 'utf8')) as { names: string[] }).names);
}
