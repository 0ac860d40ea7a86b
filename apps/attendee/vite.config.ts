import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

const target = process.env.API_URL ?? 'http://127.0.0.1:8080';

/**
 * The service worker: `sw.js` with the build's own file list to precache, so the app opens
 * offline after a first visit and an update replaces the whole set at once (docs/attendee-app.md).
 */
function serviceWorker(): Plugin {
  return {
    name: 'attendee-service-worker',
    apply: 'build',
    generateBundle(_options, bundle) {
      const files = [
        './',
        ...Object.keys(bundle).map((f) => `./${f}`),
        './manifest.webmanifest',
        './icon-192.png',
        './icon-512.png',
      ];
      const version = createHash('sha1').update(files.join('\n')).digest('hex').slice(0, 12);
      const source = readFileSync(new URL('./sw.js', import.meta.url), 'utf8')
        // The assignments, not the first mention (the header comment names __PRECACHE__ too).
        .replace('PRECACHE = __PRECACHE__', `PRECACHE = ${JSON.stringify(files)}`)
        .replace("VERSION = '__VERSION__'", `VERSION = '${version}'`);
      this.emitFile({ type: 'asset', fileName: 'sw.js', source });
    },
  };
}

export default defineConfig({
  base: '/app/',
  plugins: [react(), serviceWorker()],
  server: { proxy: { '/api': target, '/media': target } },
  build: { outDir: 'dist', emptyOutDir: true },
});
