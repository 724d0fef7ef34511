import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      // The projects that run side by side run in two workers (this machine has two cores), each
      // project saying so: a project does not inherit it from here, and Vitest refuses projects of
      // one group that differ in maxWorkers. web (isolated, one worker) runs after them, alone.
      // shared and scripts keep no state a file could leave behind: their files share a worker
      // (isolate: false) instead of loading zod and the rest again for each. connectors stays
      // isolated: its per-process maps are keyed by an emulator's origin, and a port freed by one
      // file's emulator can be the next file's (a contract test failed so in a shared worker).
      {
        test: {
          name: 'shared',
          root: './packages/shared',
          include: ['src/**/*.test.ts'],
          isolate: false,
          maxWorkers: 2,
        },
      },
      {
        test: {
          name: 'connectors',
          root: './packages/connectors',
          include: ['src/**/*.test.ts'],
          testTimeout: 20_000,
          maxWorkers: 2,
        },
      },
      // The repository's own checks (scripts/*.mjs, run by `npm run lint`).
      {
        test: {
          name: 'scripts',
          root: './scripts',
          include: ['*.test.mjs'],
          environment: 'node',
          isolate: false,
          maxWorkers: 2,
        },
      },
      './apps/server/vitest.config.ts',
      './apps/web/vitest.config.ts',
    ],
  },
});
