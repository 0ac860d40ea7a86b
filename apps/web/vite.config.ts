import path from 'node:path';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from '../../vite-precompress.ts';
import { serviceWorker } from '../../vite-service-worker.ts';

const target = process.env.API_URL ?? 'http://127.0.0.1:8080';

/**
 * Each screen's chunk is named after its page module ("monitor.page-<hash>.js"), whatever the
 * bundler's own naming picks for a chunk that also carries shared code: tests and bench:console
 * find a screen's chunk by that name, and it reads well in a network panel.
 */
function pageChunkName(chunk: { facadeModuleId: string | null; moduleIds: string[] }) {
  const pages = [chunk.facadeModuleId ?? '', ...chunk.moduleIds].filter((id) => /\.page\.tsx$/.test(id));
  const page = pages[0] ? path.basename(pages[0], '.tsx') : undefined;
  return page ? `assets/${page}-[hash].js` : 'assets/[name]-[hash].js';
}

export default defineConfig({
  plugins: [
    react(),
    // The page at install, its hashed files as they are fetched (143 files: most screens are never opened).
    serviceWorker({
      name: 'console',
      scope: '/',
      pass: ['/api/', '/media/', '/socket.io/', '/app/', '/config/'],
      precache: () => ['/'],
    }),
    precompress(),
  ],
  server: {
    proxy: {
      '/api': target,
      '/media': target,
      '/socket.io': { target, ws: true },
    },
  },
  // The manifest lets bench:console sum what each screen loads.
  build: {
    chunkSizeWarningLimit: 2000,
    manifest: true,
    // Chromium preloads modules itself: the polyfill would be shipped to every login for nothing.
    modulePreload: { polyfill: false },
    rolldownOptions: { output: { chunkFileNames: pageChunkName } },
  },
});
