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
    // The files of a worker share its module graph (isolate: false): antd, React and jsdom's setup
    // load once per worker instead of once per file (the project took 433 s of wall time isolated in
    // one worker, 51 s so). src/test/setup.ts puts back after each file what a file can change (the
    // page, globals, timers, the app's modules); shuffled orders pass (--sequence.shuffle).
    isolate: false,
    maxWorkers: 2,
  },
});
