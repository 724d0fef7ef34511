#!/usr/bin/env node
// Issue 29's measure, kept: a connector is one folder. Every connector is named in at most three
// production code files outside `packages/connectors/src/<slug>/` (the registry and what the slug
// type or the catalogue seed cannot avoid) and in no locale file outside it. Counted as an outsider
// would (`git grep -il <name>` on production code): tests, end-to-end specs, docs, migrations
// already run (drizzle/) and fixtures do not count. A product feature that names a system for its
// own reasons (the Telegram manager bot, sign-in with Facebook, the Pipedrive–SendPulse widget) is
// listed in scripts/connector-names.json with why; nothing else is. Part of `npm run lint`;
// `--list` prints every file counted.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const NOT_PRODUCTION = [
  /\.(test|spec)\.(ts|tsx|mjs|js)$/,
  /(^|\/)(e2e|test|fixtures|drizzle)\//,
  /\.md$/,
  // What only tests import: the emulators' and fixtures' registry.
  /^packages\/connectors\/src\/testing\.ts$/,
];
const LOCALE = /(^|\/)locales\//;

/** A path of connector-names.json: a file, or a folder when it ends with /. */
const covers = (path, file) => (path.endsWith('/') ? file.startsWith(path) : file === path);
/** The paths a product feature may name the connector in: `product` is { why: [path, …] }. */
const productPaths = (product) => Object.values(product).flat();

/**
 * Per connector of `names` ({ limit, connectors: { <slug>: { names, product, caseSensitive } } }), the production
 * files of the git repository at `root` outside its folder that name it, and what breaks the rule.
 */
export function checkConnectorNames(root, { connectors, limit }) {
  const files = execFileSync('git', ['ls-files', 'apps', 'packages'], { cwd: root, encoding: 'utf8' })
    .split('\n')
    .filter((f) => f && /\.(ts|tsx|mjs|cjs|js|json|css|html)$/.test(f) && !NOT_PRODUCTION.some((re) => re.test(f)));
  const text = new Map();
  const read = (f) => text.get(f) ?? text.set(f, readFileSync(join(root, f), 'utf8')).get(f);

  const report = [];
  const problems = [];
  for (const [slug, { names, product = {}, caseSensitive = false }] of Object.entries(connectors)) {
    const own = `packages/connectors/src/${slug}/`;
    // Whatever the case, unless the name is also a common word only one case of which is the connector.
    const pattern = new RegExp(names.join('|'), caseSensitive ? '' : 'i');
    const naming = files.filter(
      (f) => !f.startsWith(own) && !productPaths(product).some((p) => covers(p, f)) && pattern.test(read(f)),
    );
    const locales = naming.filter((f) => LOCALE.test(f));
    const code = naming.filter((f) => !LOCALE.test(f));
    report.push({ slug, code, locales });
    if (code.length > limit) {
      problems.push(
        `${slug}: named in ${code.length} production files outside its folder (at most ${limit}):\n  ${code.join('\n  ')}`,
      );
    }
    if (locales.length) problems.push(`${slug}: named in locale files outside its folder:\n  ${locales.join('\n  ')}`);
    // A listed path that no longer names the connector comes off the list: the list stays exact.
    for (const p of productPaths(product)) {
      if (!files.some((f) => covers(p, f) && pattern.test(read(f)))) {
        problems.push(`${slug}: connector-names.json lists ${p}, which does not name it (take it off the list)`);
      }
    }
  }
  return { report, problems };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const names = JSON.parse(readFileSync(new URL('./connector-names.json', import.meta.url), 'utf8'));
  const { report, problems } = checkConnectorNames(new URL('..', import.meta.url).pathname, names);
  if (process.argv.includes('--list')) {
    for (const { slug, code, locales } of report) {
      const all = [...code, ...locales];
      console.info(
        `${slug} ${code.length}${locales.length ? ` + ${locales.length} locale` : ''}\n  ${all.join('\n  ')}`,
      );
    }
  }
  if (problems.length) {
    console.error(problems.join('\n'));
    process.exit(1);
  }
  console.info(
    `connector names: ${report.map(({ slug, code }) => `${slug} ${code.length}`).join(', ')} (at most ${names.limit} each)`,
  );
}
