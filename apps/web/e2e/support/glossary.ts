// The names a Ukrainian page may show as they are (docs/glossary.md): the glossary's
// (src/locales/names.json) and each connector's own (packages/connectors/src/<slug>/names.json),
// read as scripts/check-strings.mjs reads them.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const here = import.meta.dirname;
const connectors = join(here, '../../../../packages/connectors/src');
const read = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as { names: string[]; tokens?: string[] };

const base = read(join(here, '../../src/locales/names.json'));
const own = readdirSync(connectors, { withFileTypes: true })
  .map((folder) => join(connectors, folder.name, 'names.json'))
  .filter((file) => existsSync(file))
  .flatMap((file) => read(file).names);

export const glossary = { names: [...base.names, ...own], tokens: base.tokens ?? [] };
