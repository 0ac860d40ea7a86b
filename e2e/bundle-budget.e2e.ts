/**
 * The console's weight before login (issue 10 point 7): the JS the login page loads — index.html's
 * scripts and module preloads, then the login route's chunk with its static imports — is at most
 * 250 KiB gzip. Read from the build (`npm run build`), no browser: what the server sends is these
 * files' `.gz`/`.br` twins, gzip level 9 as here.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { configFromEnv } from '../apps/server/src/config.ts';

const BUDGET_KIB = 250;
const LOGIN_ROUTE = 'src/modules/auth/login.page.tsx';
const dist = configFromEnv({ WEB_DIST: process.env.WEB_DIST }).webDist;

type Chunk = { file: string; imports?: string[]; css?: string[]; isEntry?: boolean };

describe('the login page loads little', () => {
  it(`login + shell JS is at most ${BUDGET_KIB} KiB gzip (index.html's scripts and preloads, the login route's chunk)`, async () => {
    if (!existsSync(path.join(dist, 'index.html'))) {
      throw new Error('The console is not built: run `npm run build` first (npm test does).');
    }
    const html = await readFile(path.join(dist, 'index.html'), 'utf8');
    const manifest = JSON.parse(await readFile(path.join(dist, '.vite/manifest.json'), 'utf8')) as Record<
      string,
      Chunk
    >;
    const attr = (re: RegExp) => [...html.matchAll(re)].map((m) => m[1].replace(/^\//, ''));
    const scripts = attr(/<script[^>]*\ssrc="([^"]+)"/g);
    const preloads = attr(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g);
    const styles = attr(/<link[^>]*rel="stylesheet"[^>]*href="([^"]+)"/g);
    expect(scripts.length, 'index.html has its entry script').toBeGreaterThan(0);

    // The login route's chunk and what it imports statically (its dynamic imports load later).
    expect(manifest[LOGIN_ROUTE], 'the login route is its own chunk').toBeDefined();
    const login = new Set<string>();
    const walk = (key: string) => {
      if (login.has(key)) return;
      login.add(key);
      for (const i of manifest[key].imports ?? []) walk(i);
    };
    walk(LOGIN_ROUTE);
    const loginFiles = [...login].map((k) => manifest[k].file);
    const loginCss = [...login].flatMap((k) => manifest[k].css ?? []);

    // index.html names every static import of the entry: its list is the shell's.
    const entry = Object.values(manifest).find((c) => c.isEntry)!;
    expect(scripts).toContain(entry.file);
    for (const i of entry.imports ?? []) expect(preloads).toContain(manifest[i].file);

    const gz = async (file: string) => gzipSync(await readFile(path.join(dist, file)), { level: 9 }).length;
    const sizes = async (files: string[]) =>
      Promise.all([...new Set(files)].map(async (file) => ({ file, gz: await gz(file) })));
    const js = await sizes([...scripts, ...preloads, ...loginFiles]);
    const css = await sizes([...styles, ...loginCss]);
    const kib = (list: { gz: number }[]) => list.reduce((n, f) => n + f.gz, 0) / 1024;
    const biggest = [...js]
      .sort((a, b) => b.gz - a.gz)
      .slice(0, 8)
      .map((f) => `${f.file} ${(f.gz / 1024).toFixed(1)} KiB`)
      .join(', ');
    console.log(
      `login + shell: ${js.length} JS files, ${kib(js).toFixed(1)} KiB gzip (CSS ${kib(css).toFixed(1)} KiB gzip beside); biggest: ${biggest}`,
    );
    expect(kib(js), `login + shell JS over ${BUDGET_KIB} KiB gzip; biggest: ${biggest}`).toBeLessThanOrEqual(
      BUDGET_KIB,
    );
  });
});
