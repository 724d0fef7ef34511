// scripts/check-node.cjs runs first in `npm start` and `npm test`: on a Node older than 24 (when
// npm could not bring Node 24 for this machine) the person sees one line saying what to do.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const script = resolve(import.meta.dirname, '../../../../scripts/check-node.cjs');
const check = createRequire(import.meta.url)(script) as { MINIMUM: number; tooOld(version: string): boolean };

/** Runs the check as its own process, with process.version made to read `version`. */
function runAs(version: string) {
  const dir = mkdtempSync(join(tmpdir(), 'lr-node-version-'));
  const preload = join(dir, 'version.cjs');
  writeFileSync(preload, `Object.defineProperty(process, 'version', { value: ${JSON.stringify(version)} });\n`);
  try {
    return spawnSync(process.execPath, ['--require', preload, script], { encoding: 'utf8' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('the Node.js version check', () => {
  it('says in one line, without a stack trace, that Node 20 is too old and how to get 24', () => {
    const result = runAs('v20.20.2');
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.trimEnd().split('\n')).toEqual([
      `LeadRelay needs Node.js 24 or newer, and this is v20.20.2 (${process.execPath}). \`npm install\` brings Node 24 on Linux (x64, arm64) and Intel macOS; elsewhere install it from https://nodejs.org`,
    ]);
  });

  it('lets Node 24 and newer through silently', () => {
    for (const version of ['v24.0.0', 'v24.21.0', 'v26.1.0']) {
      const result = runAs(version);
      expect([result.status, result.stdout, result.stderr]).toEqual([0, '', '']);
    }
    expect(check.tooOld('v23.11.0')).toBe(true);
    expect(check.MINIMUM).toBe(24);
  });

  it('is what the Node running the tests passes (npm brought it)', () => {
    expect(check.tooOld(process.version)).toBe(false);
  });
});
