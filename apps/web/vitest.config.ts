import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [react()],
  define: { __APP_VERSION__: JSON.stringify('test') },
  test: {
    name: 'web',
    root: import.meta.dirname,
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/test/setup.ts'],
    // Isolated, one file at a time after the other projects, as before issue 28: with files sharing
    // a worker (isolate: false; src/test/setup.ts puts the page, globals and the app's modules back
    // after each) and two workers beside the server's, CRM page tests failed in a full run on a
    // loaded machine, and there was no time to tell load from leftovers. Vitest runs an isolated
    // one-worker project in a line of its own, so it needs no maxWorkers like the others'.
    maxWorkers: 1,
  },
});
