// Builds the console (apps/web) and the attendee app (apps/attendee) with Vite, quietly: one
// summary line instead of a line per asset, so `npm start` ends on the address and the login.
// Warnings and errors still print. `npm run build -w apps/web` keeps Vite's full listing.
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

async function sizeOf(dir) {
  const files = (await readdir(dir, { recursive: true })).filter((f) => !/\.(br|gz)$/.test(f));
  let bytes = 0;
  let count = 0;
  for (const f of files) {
    const s = await stat(path.join(dir, f));
    if (s.isFile()) {
      bytes += s.size;
      count += 1;
    }
  }
  return { bytes, count };
}

const started = Date.now();
const parts = [];
for (const [name, dir] of [
  ['console', 'apps/web'],
  ['fan app', 'apps/attendee'],
]) {
  const appRoot = path.join(root, dir);
  await build({ root: appRoot, configFile: path.join(appRoot, 'vite.config.ts'), logLevel: 'warn' });
  const { bytes, count } = await sizeOf(path.join(appRoot, 'dist'));
  parts.push(`${name} ${count} files, ${(bytes / 1024 / 1024).toFixed(1)} MB`);
}
console.log(`  Built ${parts.join('; ')} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
