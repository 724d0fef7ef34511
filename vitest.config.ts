import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      { test: { name: 'shared', root: './packages/shared', include: ['src/**/*.test.ts'] } },
      {
        test: { name: 'connectors', root: './packages/connectors', include: ['src/**/*.test.ts'], testTimeout: 20_000 },
      },
      // The repository's own checks (scripts/*.mjs, run by `npm run lint`).
      { test: { name: 'scripts', root: './scripts', include: ['*.test.mjs'], environment: 'node' } },
      './apps/server/vitest.config.ts',
      './apps/web/vitest.config.ts',
    ],
  },
});
