#!/usr/bin/env node
// `npm run test:changed [base]`: the fast inner loop (docs/testing.md). Runs only the tests related
// to the files changed since `base` (default: main), committed or not:
// - Vitest in its related mode (`vitest related`): every test file that imports a changed file,
//   directly or through others, in any project;
// - the end-to-end specs that touch a changed screen: a changed spec or its support file; a web
//   file's screens, found through who imports it (a file the app's shell imports is on every
//   screen); a screen's specs are those that open its route (FEATURE_PATHS below).
// `--dry` prints what it would run and runs nothing.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = new URL('..', import.meta.url).pathname;
const WEB = 'apps/web/src/';
const E2E = 'apps/web/e2e/';

const git = (...a) => execFileSync('git', a, { cwd: root, encoding: 'utf8' }).split('\n').filter(Boolean);

/** Files changed since the merge base with `base`, committed or not, and new files git does not ignore. */
function changedFiles(base) {
  let since;
  try {
    [since] = git('merge-base', 'HEAD', base);
  } catch {
    console.error(
      `test:changed: no common commit with "${base}"; name the branch to compare with: npm run test:changed -- <branch>`,
    );
    process.exit(2);
  }
  const files = new Set([...git('diff', '--name-only', since), ...git('ls-files', '--others', '--exclude-standard')]);
  return [...files].filter((f) => existsSync(join(root, f)));
}

/** Every file under `dir` (repository-relative) whose name ends in one of `exts`. */
function walk(dir, exts, found = []) {
  for (const name of readdirSync(join(root, dir))) {
    const path = `${dir}/${name}`;
    if (name === 'node_modules' || name === 'dist') continue;
    if (statSync(join(root, path)).isDirectory()) walk(path, exts, found);
    else if (exts.some((e) => name.endsWith(e))) found.push(path);
  }
  return found;
}

/** The static imports of a source file, resolved to repository-relative paths (dynamic `import()` left out). */
function staticImports(file) {
  const text = readFileSync(join(root, file), 'utf8');
  const found = [];
  for (const m of text.matchAll(/^\s*(?:import|export)\s[^;]*?from\s+'(\.[^']+)'|^\s*import\s+'(\.[^']+)'/gm)) {
    const spec = m[1] ?? m[2];
    const target = resolve(root, dirname(file), spec);
    for (const candidate of [target, `${target}.ts`, `${target}.tsx`, `${target}/index.ts`, `${target}/index.tsx`]) {
      if (existsSync(candidate) && statSync(candidate).isFile()) {
        found.push(relative(root, candidate));
        break;
      }
    }
  }
  return found;
}

/** The files that import any of `files`, directly or through others, among `universe`. */
function importersOf(files, universe) {
  const importers = new Map();
  for (const file of universe) {
    for (const target of staticImports(file)) {
      if (!importers.has(target)) importers.set(target, new Set());
      importers.get(target).add(file);
    }
  }
  const reached = new Set(files);
  const queue = [...files];
  while (queue.length > 0) {
    for (const importer of importers.get(queue.pop()) ?? []) {
      if (!reached.has(importer)) {
        reached.add(importer);
        queue.push(importer);
      }
    }
  }
  return reached;
}

// The route paths of each features/ folder where its name is not in them (app/routes.tsx); any
// other folder's screens are the routes that hold its name (features/parsers: /admin/parsers).
const FEATURE_PATHS = {
  auth: ['/signin', '/signup', '/recovery', '/password', '/confirm', '/enter', '/admin/logout'],
  dashboard: ['/admin'],
  plans: ['/admin/plan', '/admin/super/tariffs'],
  'super-admin': ['/admin/super'],
  'test-lead': ['/test'],
  translations: ['/admin/language', '/admin/super/language'],
};
// The app's shell (router, layouts, providers, the i18n and http layers): on every screen.
const SHELL = [`${WEB}main.tsx`, `${WEB}app/router.tsx`, `${WEB}app/routes.tsx`, `${WEB}app/providers.tsx`];

const literal = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The end-to-end specs (repository-relative) that touch what `changed` (repository-relative files) changed. */
export function e2eSpecs(changed) {
  const specs = walk(E2E.slice(0, -1), ['.spec.ts']);
  const chosen = new Set(changed.filter((f) => f.startsWith(E2E) && f.endsWith('.spec.ts')));
  // A support file: the specs that import it.
  const support = changed.filter((f) => f.startsWith(`${E2E}support/`));
  if (support.length > 0) {
    for (const f of importersOf(support, walk(E2E.slice(0, -1), ['.ts']))) if (specs.includes(f)) chosen.add(f);
  }
  // A connector's manifest, logo or words (ADR 014): the specs that open its pages (its folder is its
  // slug, its pages /admin/integrations/<slug>); the manifests' kit: every integration page's.
  // A spec names a connector by its slug, as a word ('alfasms', /admin/integrations/ga, t.ga).
  const features = new Set();
  for (const f of changed) {
    const m = f.match(/^packages\/connectors\/src\/([\w-]+)\/(?:manifest\.ts|logo\.ts|words\/)/);
    if (m?.[1] === 'kit') features.add('integrations');
    else if (m) {
      const word = new RegExp(`(?<![\\w-])${literal(m[1])}(?![\\w-])`);
      for (const spec of specs) if (word.test(readFileSync(join(root, spec), 'utf8'))) chosen.add(spec);
    }
  }
  const web = changed.filter((f) => f.startsWith(WEB) && !/\.test\.tsx?$/.test(f) && !f.startsWith(`${WEB}test/`));
  if (web.length === 0 && features.size === 0) return [...chosen].sort();
  const reached = importersOf(web, walk(WEB.slice(0, -1), ['.ts', '.tsx']));
  // Strings and styles are on every screen, as is anything the shell imports.
  if (web.some((f) => f.startsWith(`${WEB}locales/`) || f.endsWith('.css')) || SHELL.some((f) => reached.has(f))) {
    return specs;
  }
  for (const f of reached) {
    const m = f.match(/^apps\/web\/src\/features\/([\w-]+)\//);
    if (m) features.add(m[1]);
    // The pages in app/ (integration-detail, integration-type, parser-detail) are the integrations' and parsers'.
    if (f === `${WEB}app/integration-detail.tsx` || f === `${WEB}app/integration-type.tsx`)
      features.add('integrations');
    if (f === `${WEB}app/parser-detail.tsx`) features.add('parsers');
  }
  for (const feature of features) {
    const paths = FEATURE_PATHS[feature] ?? [`/${feature}`];
    const pattern = new RegExp(`(${paths.map(literal).join('|')})(?![\\w-])`);
    for (const spec of specs) if (pattern.test(readFileSync(join(root, spec), 'utf8'))) chosen.add(spec);
  }
  return [...chosen].sort();
}

function main() {
  const args = process.argv.slice(2);
  const dry = args.includes('--dry');
  const base = args.find((a) => !a.startsWith('--')) ?? 'main';
  const changed = changedFiles(base);
  if (changed.length === 0) {
    console.info(`test:changed: nothing changed since ${base}.`);
    process.exit(0);
  }
  const sources = changed.filter((f) => /\.(ts|tsx|mjs|cjs|js|json|sql)$/.test(f));
  const specs = e2eSpecs(changed);
  console.info(`test:changed: ${changed.length} file(s) changed since ${base}.`);
  console.info(`end-to-end specs that touch a changed screen: ${specs.length > 0 ? specs.join(', ') : 'none'}`);
  if (dry) process.exit(0);

  let failed = false;
  if (sources.length > 0) {
    console.info('\n=== Vitest: the tests related to the changed files ===');
    const r = spawnSync('npx', ['vitest', 'related', '--run', '--passWithNoTests', ...sources], {
      cwd: root,
      stdio: 'inherit',
    });
    if (r.status !== 0) failed = true;
  }
  if (specs.length > 0) {
    console.info('\n=== end-to-end: the specs that touch a changed screen ===');
    const build = spawnSync('npm', ['run', 'build', '-w', '@leadrelay/web'], { cwd: root, stdio: 'inherit' });
    const r =
      build.status === 0
        ? spawnSync('npx', ['playwright', 'test', '--config', 'apps/web/playwright.config.ts', ...specs], {
            cwd: root,
            stdio: 'inherit',
          })
        : build;
    if (r.status !== 0) failed = true;
  }
  process.exit(failed ? 1 : 0);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main();
