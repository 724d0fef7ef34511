// The strings check of `npm run lint` (check-strings.mjs) on a web app written for the test: it
// must name each planted place a Ukrainian page could show a word that is not Ukrainian, with its
// file and line, and pass the same code written the right way.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkStrings } from './check-strings.mjs';

const LOCALES = {
  'uk/common.json': { save: 'Зберегти', search: 'Пошук', status: { ok: 'Працює', broken: 'Помилка' } },
  'en/common.json': { save: 'Save', search: 'Search', status: { ok: 'Works', broken: 'Error' } },
  'uk/hooks.json': { title: 'Хуки', reasons: { AUTH: 'Відмова', UNKNOWN: 'Щось пішло не так' } },
  'en/hooks.json': { title: 'Hooks', reasons: { AUTH: 'Refused', UNKNOWN: 'Something went wrong' } },
  'names.json': { names: ['LeadRelay', 'amoCRM'], tokens: ['phone'] },
};

/** Each planted mistake, and the words its report must carry. */
const BAD = {
  'features/missing-key.tsx': `import { useTranslation } from 'react-i18next';
export function Page() {
  const { t } = useTranslation('hooks');
  return <h1>{t('subtitle')}</h1>;
}
`,
  'features/missing-connector-word.tsx': `import { useTranslation } from 'react-i18next';
export function Tab() {
  const { t } = useTranslation('connectors');
  return <span>{t('demo.tabs.log')} {t('demo.tabs.event')}</span>;
}
`,
  'features/missing-map-key.tsx': `import { useTranslation } from 'react-i18next';
const STATUS_KEYS = { ok: 'status.ok', broken: 'status.broken', paused: 'status.paused' } as const;
export function Status({ s }: { s: keyof typeof STATUS_KEYS }) {
  const { t } = useTranslation();
  return <span>{t(STATUS_KEYS[s])}</span>;
}
`,
  'features/words-in-markup.tsx': `import { Input } from 'antd';
import { useTranslation } from 'react-i18next';
export function Form() {
  const { t } = useTranslation();
  return (
    <div>
      <button type="button">{t('save')}</button>
      <Input placeholder="Search leads" />
      <p>Saved successfully</p>
    </div>
  );
}
`,
  'features/server-text.tsx': `import { Alert, message } from 'antd';
import { useTranslation } from 'react-i18next';
export function Hook({ hook, onFail }: { hook: { reason: string; lastError: string }; onFail: (e: Error) => void }) {
  const { t, i18n } = useTranslation('hooks');
  const label = i18n.exists(\`hooks:reasons.\${hook.reason}\`) ? t('title') : hook.reason;
  return (
    <div>
      <span>{hook.reason}</span>
      <Alert title={\`\${t('title')}: \${hook.lastError}\`} />
      <button type="button" onClick={() => onFail(new Error('x'))}>{label}</button>
    </div>
  );
}
export const fail = (err: Error) => void message.error(err.message);
`,
};

const GOOD = {
  'features/good.tsx': `import { Alert, Input, message } from 'antd';
import { Trans, useTranslation } from 'react-i18next';
import { reasonText } from '../lib/reasons';
export function Good({ hook }: { hook: { reason: string } }) {
  const { t } = useTranslation('hooks');
  return (
    <div>
      <h1>{t('title')}</h1>
      <Trans i18nKey="common:save" />
      <Input placeholder={t('common:search')} aria-label="LeadRelay" />
      <Input placeholder="crm.example.com" />
      <span>{reasonText(hook.reason)}</span>
      <Alert title={t('reasons.AUTH')} description={reasonText(hook.reason)} />
      <p>amoCRM</p>
      <p>DemoCRM</p>
      <p>{t('connectors:demo.tabs.log')}</p>
      {/* i18n-raw: the operator's log shows the answer as it came */}
      <code>{hook.reason}</code>
    </div>
  );
}
export const saved = () => void message.success(reasonText('AUTH'));
`,
  'lib/reasons.ts': `export const reasonText = (code: string) => code.toLowerCase();
`,
};

let dir;
const write = (base, files) => {
  for (const [name, content] of Object.entries(files)) {
    const path = join(base, name);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  }
};
const run = (src) =>
  checkStrings({ src, locales: join(dir, 'locales'), connectors: join(dir, 'connectors'), cwd: dir });

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'check-strings-'));
  write(join(dir, 'locales'), LOCALES);
  // A connector's words: the namespace connectors, under its folder's name.
  write(join(dir, 'connectors'), {
    'demo/words/uk.json': { tabs: { log: 'Журнал' } },
    'demo/words/en.json': { tabs: { log: 'Log' } },
    // Its own names, which may stand in the markup as the glossary's do.
    'demo/names.json': { names: ['DemoCRM'] },
  });
  write(join(dir, 'good'), GOOD);
  write(join(dir, 'bad'), { ...GOOD, ...BAD });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the strings check', () => {
  it('passes a page whose every word comes from the uk files, a glossary name or a translated code', async () => {
    expect(await run(join(dir, 'good'))).toEqual([]);
  });

  it('names each planted place with its file, line and what to do', async () => {
    const found = (await run(join(dir, 'bad'))).map((p) => `${p.file}:${p.line}: ${p.message}`);
    const expectOne = (pattern) =>
      expect(
        found.filter((f) => pattern.test(f)),
        String(pattern),
      ).toHaveLength(1);
    // 1. keys the uk files lack: in the component's namespace, and a value of an as-const map.
    expectOne(/^bad\/features\/missing-key\.tsx:4: the key hooks:subtitle is not in the Ukrainian locale files/);
    expectOne(/^bad\/features\/missing-map-key\.tsx:5: the key common:status\.paused is not in the Ukrainian/);
    // A connector's word its words lack, said where it goes.
    expectOne(
      /^bad\/features\/missing-connector-word\.tsx:4: the key connectors:demo\.tabs\.event .*packages\/connectors\/src\/demo\/words\/uk\.json/,
    );
    // 2. words in the markup: a placeholder and JSX text.
    expectOne(
      /^bad\/features\/words-in-markup\.tsx:8: "Search leads" is written in the markup: put it in the locale files/,
    );
    expectOne(/^bad\/features\/words-in-markup\.tsx:9: "Saved successfully" is written in the markup/);
    // 3. the server's words as they came: a raw fallback, JSX text, a prop, a message.
    expectOne(/^bad\/features\/server-text\.tsx:5: a translation with a raw fallback shows the server's `reason`/);
    expectOne(/^bad\/features\/server-text\.tsx:8: JSX text shows the server's `reason` as it came/);
    expectOne(/^bad\/features\/server-text\.tsx:9: the title prop shows the server's `lastError`/);
    expectOne(/^bad\/features\/server-text\.tsx:14: message\.error shows the server's `message`.*errors:UNKNOWN/);
    expect(found).toHaveLength(9);
  });
});
