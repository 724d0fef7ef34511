import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'server',
    root: import.meta.dirname,
    include: ['src/**/*.test.ts'],
    globalSetup: ['src/test/global-setup.ts'],
    // The files of a worker share its modules (Fastify, drizzle and the rest load once, not per
    // file): module-level state is kept per app, or forgotten after each file (test/per-file.ts).
    isolate: false,
    setupFiles: ['src/test/per-file.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    fileParallelism: true,
    maxWorkers: 2, // as every project of the run (vitest.config.ts)
  },
});
