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
    // The files of a worker share its jsdom and node_modules (antd, React: ~4 s a file to load
    // again); src/test/setup.ts puts the page, globals and the app's own modules back after each.
    isolate: false,
    maxWorkers: 2, // as every project of the run (vitest.config.ts)
  },
});
