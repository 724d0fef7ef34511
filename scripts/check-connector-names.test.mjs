// The count issue 29 asks for, on a planted repository: a connector named in a fourth production
// file, or in a locale file, outside its folder fails; tests, docs and migrations do not count; a
// product use listed with why does not count, and a listed path that no longer names it is reported.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkConnectorNames } from './check-connector-names.mjs';

let dir;
function repo(files) {
  dir = mkdtempSync(join(tmpdir(), 'connector-names-'));
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), content);
  }
  execFileSync('git', ['init', '-q'], { cwd: dir });
  execFileSync('git', ['add', '.'], { cwd: dir });
}
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const FOLDER_AND_THREE = {
  'packages/connectors/src/democrm/index.ts': "export const slug = 'democrm';",
  'packages/connectors/src/index.ts': "import { democrm } from './democrm';",
  'packages/shared/src/lead.ts': "export const TYPES = ['democrm'];",
  'apps/server/src/catalogue.seed.ts': "{ slug: 'DemoCRM' }",
  // Not production: a test, an end-to-end spec, a doc, a migration already run.
  'apps/server/src/deliver.test.ts': 'democrm',
  'apps/web/e2e/flow.spec.ts': 'democrm',
  'docs/democrm.md': 'DemoCRM',
  'apps/server/drizzle/0001_democrm.sql': 'democrm',
};
const NAMES = { limit: 3, connectors: { democrm: { names: ['democrm', 'demo crm'] } } };

describe('the connector names check', () => {
  it('passes a connector named in its folder and three production files', () => {
    repo(FOLDER_AND_THREE);
    const { report, problems } = checkConnectorNames(dir, NAMES);
    expect(problems).toEqual([]);
    expect(report[0].code.sort()).toEqual([
      'apps/server/src/catalogue.seed.ts',
      'packages/connectors/src/index.ts',
      'packages/shared/src/lead.ts',
    ]);
  });

  it('fails a fourth file and a locale file, whatever the case of the name', () => {
    repo({
      ...FOLDER_AND_THREE,
      'apps/server/src/modules/democrm/routes.ts': '// Demo CRM routes',
      'apps/web/src/locales/uk/errors.json': '{ "DEMOCRM_REFUSED": "DemoCRM відмовив" }',
    });
    const { problems } = checkConnectorNames(dir, NAMES);
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^democrm: named in 4 production files .*\n.*modules\/democrm\/routes\.ts/s);
    expect(problems[1]).toMatch(/^democrm: named in locale files .*locales\/uk\/errors\.json/s);
  });

  it('does not count a listed product use, and reports a listed path that no longer names it', () => {
    repo({
      ...FOLDER_AND_THREE,
      'apps/web/src/features/widget/page.tsx': 'DemoCRM panel',
      'apps/web/src/locales/uk/widget.json': '{ "title": "Віджет DemoCRM" }',
      'apps/server/src/app.ts': '// nothing of it',
    });
    const product = {
      'the widget joins it by name': ['apps/web/src/features/widget/', 'apps/web/src/locales/uk/widget.json'],
      'a stale entry': ['apps/server/src/app.ts'],
    };
    const { problems } = checkConnectorNames(dir, {
      limit: 3,
      connectors: { democrm: { ...NAMES.connectors.democrm, product } },
    });
    expect(problems).toEqual([
      'democrm: connector-names.json lists apps/server/src/app.ts, which does not name it (take it off the list)',
    ]);
  });

  it('counts a slug that is a common word only as written, when told to', () => {
    repo({
      'packages/connectors/src/post/index.ts': "export const slug = 'post';",
      'apps/web/src/destinations.tsx': "presetType='post'",
      'apps/server/src/mail.ts': "const subject = 'POST';",
    });
    const names = (caseSensitive) => ({ limit: 0, connectors: { post: { names: ['[\'"]post[\'"]'], caseSensitive } } });
    expect(checkConnectorNames(dir, names(true)).report[0].code).toEqual(['apps/web/src/destinations.tsx']);
    expect(checkConnectorNames(dir, names(false)).report[0].code.sort()).toEqual([
      'apps/server/src/mail.ts',
      'apps/web/src/destinations.tsx',
    ]);
  });
});
