/**
 * The console as an operator gets it (issue 10, points 1 and 7). Reads the build (JS per
 * chunk, gzip and brotli), asks a real server for the console's files and an API answer
 * (Content-Encoding, Cache-Control), loads login + shell in Chromium and sums the JS it
 * fetched, then watches the monitor with the venue simulator (4 cameras at 3 fps) and counts
 * the frames each camera's tile drew, per second. Figures go to docs/monitor.md by hand.
 *
 *   npm run build && npm run bench:console           (60 s of streams)
 *   BENCH_SECONDS=20 npm run bench:console
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { ADMIN_PASSWORD, startStack } from '../../../e2e/fixtures/stack.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const CAMERAS = ['cam1', 'cam2', 'cam3', 'cam4'];
const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;

const stack = await startStack({ simulator: { camerasPerHost: 4, fps: 3, attendeeRate: 0.3 } });
const dist = stack.config.webDist;
try {
  // 1. The build.
  const assets = path.join(dist, 'assets');
  const js = (await readdir(assets)).filter((f) => f.endsWith('.js'));
  const sizeOf = async (f: string) => (await stat(f)).size;
  const chunks = await Promise.all(
    js.map(async (f) => ({
      f,
      raw: await sizeOf(path.join(assets, f)),
      gz: await sizeOf(path.join(assets, `${f}.gz`)).catch(() => 0),
      br: await sizeOf(path.join(assets, `${f}.br`)).catch(() => 0),
    })),
  );
  chunks.sort((a, b) => b.gz - a.gz);
  const sum = (k: 'raw' | 'gz' | 'br') => chunks.reduce((n, c) => n + c[k], 0);
  console.log(
    `build: ${chunks.length} JS chunks, ${kib(sum('raw'))} raw, ${kib(sum('gz'))} gzip, ${kib(sum('br'))} brotli`,
  );
  for (const c of chunks.slice(0, 6))
    console.log(`  ${c.f}: ${kib(c.raw)} raw, ${kib(c.gz)} gzip, ${kib(c.br)} brotli`);

  // 2. Served headers.
  const head = async (p: string, enc = 'br, gzip') => {
    const res = await fetch(`${stack.url}${p}`, { headers: { 'Accept-Encoding': enc } });
    await res.arrayBuffer();
    return `${p}: ${res.status}, Content-Encoding ${res.headers.get('content-encoding') ?? '-'}, Cache-Control ${res.headers.get('cache-control') ?? '-'}`;
  };
  console.log('headers:');
  for (const p of ['/', '/album', `/assets/${chunks[0].f}`]) console.log(`  ${await head(p)}`);
  console.log(`  ${await head(`/assets/${chunks[0].f}`, 'gzip')}`);
  console.log(`  ${await head('/api/public/event')}`);

  // 3. What each screen loads, from the build's manifest (static imports of each chunk).
  type Chunk = { file: string; imports?: string[]; isEntry?: boolean; isDynamicEntry?: boolean };
  const manifest = JSON.parse(await readFile(path.join(dist, '.vite/manifest.json'), 'utf8')) as Record<string, Chunk>;
  const closure = (key: string, seen = new Set<string>()): Set<string> => {
    if (seen.has(key)) return seen;
    seen.add(key);
    for (const i of manifest[key].imports ?? []) closure(i, seen);
    return seen;
  };
  const gzOf = (keys: Iterable<string>) =>
    [...keys].reduce((n, k) => n + (chunks.find((c) => `assets/${c.f}` === manifest[k].file)?.gz ?? 0), 0);
  const entry = Object.keys(manifest).find((k) => manifest[k].isEntry)!;
  const shell = new Set([...closure(entry), ...closure('src/modules/auth/login.page.tsx')]);
  console.log(`login + shell: ${shell.size} JS files, ${kib(gzOf(shell))} gzip`);
  for (const k of Object.keys(manifest).filter((key) => manifest[key].isDynamicEntry)) {
    const own = [...closure(k)].filter((c) => !shell.has(c));
    console.log(`  ${k} adds ${own.length} files, ${kib(gzOf(own))} gzip`);
  }
  const { page, context } = await stack.newPage({ login: { username: 'admin', password: ADMIN_PASSWORD } });

  // 4. Streams, counted in the console the operator looks at.
  await page.goto('/monitor');
  for (const c of CAMERAS) {
    await page.locator(`[data-testid="stream-${c}"][data-live="true"]`).waitFor({ timeout: 60_000 });
  }
  const frames = (p: Page) =>
    p.evaluate<Record<string, number>>(
      `Object.fromEntries(${JSON.stringify(CAMERAS)}.map((c) => [c, Number(document.querySelector('[data-testid="stream-' + c + '"]')?.getAttribute('data-frames') ?? 0)]))`,
    );
  const sim = stack.venue!.hosts[0].cameras;
  const due0 = Object.fromEntries(CAMERAS.map((c) => [c, sim.get(c)!.framesDue]));
  const got0 = await frames(page);
  const perSecond: Record<string, number[]> = Object.fromEntries(CAMERAS.map((c) => [c, []]));
  let last = got0;
  const started = performance.now();
  for (let s = 0; s < SECONDS; s++) {
    await new Promise((r) => setTimeout(r, 1000));
    const now = await frames(page);
    for (const c of CAMERAS) perSecond[c].push(now[c] - last[c]);
    last = now;
  }
  const elapsed = (performance.now() - started) / 1000;
  console.log(`streams over ${elapsed.toFixed(0)} s (4 cameras at 3 fps), frames drawn by the console:`);
  for (const c of CAMERAS) {
    const got = last[c] - got0[c];
    const due = sim.get(c)!.framesDue - due0[c];
    const ps = perSecond[c];
    console.log(
      `  ${c}: ${got} of ${due} due (${((100 * got) / due).toFixed(0)} %), ${(got / elapsed).toFixed(2)} fps, ` +
        `per second min ${Math.min(...ps)} max ${Math.max(...ps)}`,
    );
  }
  await context.close();
} finally {
  await stack.close();
}
