import { existsSync, readdirSync, readFileSync } from 'node:fs';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

const server = process.env.VITE_PROXY_TARGET ?? 'http://localhost:3000';

// A connector's calls outside /api live at the auth host, under its slug (an OAuth start:
// POST /<slug>/state): the dev server sends them on to the server too, for every connector folder
// (one with its definition, index.ts). No connector is named here.
const connectorsDir = new URL('../../packages/connectors/src/', import.meta.url);
const connectorPaths = readdirSync(connectorsDir, { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(new URL(`${d.name}/index.ts`, connectorsDir)))
  .map((d) => [`/${d.name}/`, { target: server, changeOrigin: true }] as const);

export default defineConfig({
  plugins: [react()],
  define: { __APP_VERSION__: JSON.stringify(pkg.version) },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: server, changeOrigin: true },
      '/auth': { target: server, changeOrigin: true },
      ...Object.fromEntries(connectorPaths),
      '/socket.io': { target: server, changeOrigin: true, ws: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
    manifest: true,
    // A chunk is named by its hash alone: the entry lists every route's chunks for preloading, and
    // the names (antd's "EllipsisOutlined-…") cost 4-6 KB gzipped of every first load (issue 17 part 8).
    // The manifest (dist/.vite/manifest.json) says which source each chunk holds.
    rolldownOptions: { output: { chunkFileNames: 'assets/[hash].js' } },
  },
});
