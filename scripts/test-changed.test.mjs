// `npm run test:changed` (test-changed.mjs): which end-to-end specs a change runs, read off this
// repository's own screens and specs. A developer who changes a screen gets the specs that open it,
// and not the whole suite; a change every screen shows runs every spec.
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { e2eSpecs } from './test-changed.mjs';

const all = readdirSync(new URL('../apps/web/e2e/', import.meta.url))
  .filter((f) => f.endsWith('.spec.ts'))
  .map((f) => `apps/web/e2e/${f}`)
  .sort();

describe('test:changed picks the end-to-end specs of a change', () => {
  it('a feature page: the specs that open its route, not the others', () => {
    const specs = e2eSpecs(['apps/web/src/features/parsers/pages/parsers-page.tsx']);
    expect(specs).toContain('apps/web/e2e/parsers-flow.spec.ts');
    expect(specs).not.toContain('apps/web/e2e/payments.spec.ts');
    expect(specs.length).toBeLessThan(all.length);
  });

  it('a shared component: the specs of every screen that imports it', () => {
    const specs = e2eSpecs(['apps/web/src/components/integrations/destination-shell.tsx']);
    // The CRM pages and Telegram's are built on the destination shell, as is every connector page
    // drawn from a manifest at /admin/integrations/:type (which every integration page goes through).
    expect(specs).toEqual(
      expect.arrayContaining(['apps/web/e2e/crm-flow.spec.ts', 'apps/web/e2e/telegram-flow.spec.ts']),
    );
    expect(specs).not.toContain('apps/web/e2e/payments.spec.ts');
  });

  it('a folder named unlike its routes (features/auth): the specs of its routes', () => {
    expect(e2eSpecs(['apps/web/src/features/auth/pages/enter-page.tsx'])).toContain('apps/web/e2e/enter.spec.ts');
  });

  it('the i18n layer, a locale or a style sheet: every spec', () => {
    expect(e2eSpecs(['apps/web/src/lib/i18n.ts'])).toEqual(all);
    expect(e2eSpecs(['apps/web/src/locales/uk-rest.ts'])).toEqual(all);
    expect(e2eSpecs(['apps/web/src/styles.css'])).toEqual(all);
  });

  it('a spec runs itself; a support file runs the specs that import it', () => {
    expect(e2eSpecs(['apps/web/e2e/status.spec.ts'])).toEqual(['apps/web/e2e/status.spec.ts']);
    const specs = e2eSpecs(['apps/web/e2e/support/parsers.ts']);
    expect(specs).toContain('apps/web/e2e/parsers-flow.spec.ts');
    expect(specs).not.toContain('apps/web/e2e/payments.spec.ts');
  });

  it("a connector's manifest, logo or words: the specs that open its pages", () => {
    for (const file of ['manifest.ts', 'logo.ts', 'words/uk.json']) {
      const specs = e2eSpecs([`packages/connectors/src/alfasms/${file}`]);
      expect(specs, file).toContain('apps/web/e2e/sms-ga-flow.spec.ts');
      expect(specs, file).not.toContain('apps/web/e2e/payments.spec.ts');
    }
    expect(e2eSpecs(['packages/connectors/src/alfasms/client.ts'])).toEqual([]);
  });

  it('a web unit test or a server file alone: no end-to-end spec', () => {
    expect(e2eSpecs(['apps/web/src/lib/format.test.ts'])).toEqual([]);
    expect(e2eSpecs(['packages/shared/src/own.ts'])).toEqual([]);
  });
});
