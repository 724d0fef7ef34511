import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      // shared, connectors and scripts keep no state a file could leave behind (the connectors'
      // per-process maps are keyed by each emulator's own origin): their files share a worker
      // (isolate: false) instead of loading zod, fastify and the rest again for each.
      { test: { name: 'shared', root: './packages/shared', include: ['src/**/*.test.ts'], isolate: false } },
      {
        test: {
          name: 'connectors',
          root: './packages/connectors',
          include: ['src/**/*.test.ts'],
          testTimeout: 20_000,
          isolate: false,
        },
      },
      // The repository's own checks (scripts/*.mjs, run by `npm run lint`).
      { test: { name: 'scripts', root: './scripts', include: ['*.test.mjs'], environment: 'node', isolate: false } },
      './apps/server/vitest.config.ts',
      './apps/web/vitest.config.ts',
    ],
  },
});
