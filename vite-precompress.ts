import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * Writes `.br` and `.gz` beside every text file of the build, at the highest levels (once, at
 * build time); the server sends them as they are (@fastify/static `preCompressed`). Used by the
 * console's and the attendee app's builds (apps/web, apps/attendee).
 */
export function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'stadiumcam-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const files = (await readdir(outDir, { recursive: true })).filter((f) =>
        /\.(js|css|html|svg|json|webmanifest|txt)$/.test(f),
      );
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
