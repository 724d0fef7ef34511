import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      // Every project runs in two workers (this machine has two cores), each saying so: a project
      // does not inherit it from here, and Vitest refuses projects of one group that differ in
      // maxWorkers. shared, scripts, server and web share a worker's module graph across files
      // (isolate: false) instead of loading zod, Fastify, antd and the rest again for each; the
      // server's and web's setup files put back what a file can leave behind. connectors stays
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
