import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

const target = process.env.API_URL ?? 'http://127.0.0.1:8080';
const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * Writes `.br` and `.gz` beside every text file of the build, at the highest levels (once, at
 * build time); the server sends them as they are (@fastify/static `preCompressed`).
 */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'stadiumcam-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const files = (await readdir(outDir, { recursive: true })).filter((f) => /\.(js|css|html|svg|json|txt)$/.test(f));
      await Promise.all(
        files.map(async (f) => {
          const file = path.join(outDir, f);
          const data = await readFile(file);
          if (data.length < 1024) return;
          const params = {
            [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
            [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
          };
          await writeFile(`${file}.br`, await brotli(data, { params }));
          await writeFile(`${file}.gz`, await gzip(data, { level: 9 }));
        }),
      );
    },
  };
}

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
  plugins: [react(), precompress()],
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
