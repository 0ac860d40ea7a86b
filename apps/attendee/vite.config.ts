import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from '../../vite-precompress.ts';
import { serviceWorker } from '../../vite-service-worker.ts';

const target = process.env.API_URL ?? 'http://127.0.0.1:8080';

export default defineConfig({
  base: '/app/',
  plugins: [
    react(),
    // Every file at install, so the app opens offline after a first visit (docs/attendee-app.md).
    serviceWorker({
      name: 'attendee',
      scope: '/app/',
      precache: (files) => [
        '/app/',
        ...[...files, 'manifest.webmanifest', 'icon-192.png', 'icon-512.png'].map((f) => `/app/${f}`),
      ],
    }),
    precompress(),
  ],
  server: { proxy: { '/api': target, '/media': target } },
  build: { outDir: 'dist', emptyOutDir: true },
});
