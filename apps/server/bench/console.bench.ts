/**
 * The console as an operator gets it (issue 10, points 1 and 7). Reads the build (JS per
 * chunk, gzip and brotli), asks a real server for the console's files and an API answer
 * (Content-Encoding, Cache-Control), loads login + shell in Chromium and sums the JS it
 * fetched, then watches the monitor with the venue simulator (4 cameras at 3 fps) and counts
 * the frames each camera's tile drew, per second; last the album (point 3): tab switch, page
 * change, favourite, select and ban timed in the page from the click to the painted change, and
 * the long tasks meanwhile. Figures go to docs/monitor.md and docs/album.md by hand.
 *
 *   npm run build && npm run bench:console           (60 s of streams)
 *   BENCH_SECONDS=20 npm run bench:console
 *   BENCH_SECONDS=0 npm run bench:console           (build, headers and the album only)
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { ADMIN_PASSWORD, startStack } from '../../../e2e/fixtures/stack.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const CAMERAS = ['cam1', 'cam2', 'cam3', 'cam4'];
const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;

/** In-page: time from `act()` to the frame painted after `done()` holds (MutationObserver + rAF). */
const MEASURE = `window.measure = (act, done) => new Promise((resolve) => {
  const t0 = performance.now();
  let settled = false;
  const finish = () => {
    if (settled || !done()) return;
    settled = true;
    mo.disconnect();
    requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - t0), 0));
  };
  const mo = new MutationObserver(finish);
  mo.observe(document.body, { subtree: true, childList: true, attributes: true });
  act();
  finish();
  setTimeout(() => { if (!settled) { settled = true; mo.disconnect(); resolve(-1); } }, 30000);
});
window.longTasks = [];
new PerformanceObserver((l) => { for (const e of l.getEntries()) window.longTasks.push({ start: e.startTime, ms: e.duration }); })
  .observe({ type: 'longtask', buffered: true });`;

async function albumBench() {
  const { insertSnapshot } = await import('../src/modules/snapshots/snapshots.repository.ts');
  const sharp = (await import('sharp')).default;
  console.log('album: seeding 300 photos…');
  const { page, context } = await stack.newPage({ login: { username: 'admin', password: ADMIN_PASSWORD } });
  const current = (await (await page.request.get('/api/events/stadiumcam')).json()) as { slugDate: string };
  const slugDate = current.slugDate;
  // Seeded as the simulator's photos are: several thumbnails, seats, cameras, some shared/favourite.
  const uris: string[] = [];
  for (const bg of ['#1d4e89', '#a23b72', '#2e8b57', '#c47f00', '#5b3fa0']) {
    const jpeg = await sharp({ create: { width: 320, height: 240, channels: 3, background: bg } })
      .jpeg()
      .toBuffer();
    uris.push(await stack.app.deps.media.put(`${slugDate}/bench-${bg.slice(1)}.jpg`, jpeg));
  }
  const now = Date.now();
  for (let i = 0; i < 300; i++) {
    const uri = uris[i % uris.length];
    await insertSnapshot(stack.app.deps.db, {
      id: crypto.randomUUID(),
      slug: 'stadiumcam',
      slugDate,
      userId: `bench-fan-${i % 60}`,
      camera: `cam${1 + (i % 4)}`,
      section: String(100 + (i % 30)),
      row: String.fromCharCode(65 + (i % 20)),
      seat: String(1 + (i % 24)),
      date: new Date(now - 3600_000 - i * 10_000),
      favorite: i % 3 === 0,
      postObj: i % 2 ? [{ socialSource: 'Share', imgURL: uri, date: new Date(now - i * 10_000).toISOString() }] : [],
      thumbUri: uri,
      smallUri: uri,
      rawCroppedUri: uri,
      sharedUri: uri,
    });
  }

  console.log('album: opening the album…');
  await page.addInitScript(MEASURE);
  await page.goto(`/album?events=${slugDate}`);
  const tiles = page.getByTestId('snapshot-tile');
  await tiles.nth(99).waitFor({ timeout: 60_000 });
  // Auto Refresh off: the simulator's photos would otherwise change page 1 between runs.
  await page.getByLabel('Auto Refresh').uncheck({ force: true });
  await page.mouse.move(1, 1);
  const since = await page.evaluate<number>('performance.now()');

  /** Runs `act` (source text) and waits for `done`; ms to the painted change. */
  const time = (act: string, done: string) => page.evaluate<number>(`window.measure(() => { ${act} }, () => ${done})`);
  // The page's tiles as one string: another tab can start with the same photo (a favourite).
  const firstId = () =>
    page.evaluate<string>(
      `[...document.querySelectorAll('[data-testid="snapshot-tile"]')].map((t) => t.dataset.id).join()`,
    );
  const clickTab = (name: string) =>
    `[...document.querySelectorAll('[role="tab"]')].find((t) => t.textContent.startsWith('${name}')).click()`;
  const painted = (before: string) =>
    `(() => { const g = document.querySelector('[data-testid="album-grid"]'); const ids = [...(g?.querySelectorAll('[data-testid="snapshot-tile"]') ?? [])].map((t) => t.dataset.id).join(); return !!ids && ids !== '${before}' && g.style.opacity !== '0.6'; })()`;
  const figures: Record<string, number[]> = {};
  const note = (what: string, ms: number) => {
    if (process.env.BENCH_VERBOSE) console.log(`    ${what}: ${ms.toFixed(0)} ms`);
    (figures[what] ??= []).push(ms);
  };

  for (let round = 0; round < 3; round++) {
    console.log(`album: round ${round + 1} of 3…`);
    for (const tab of ['Favorites', 'Shared', 'All Photos']) {
      const before = await firstId();
      note('tab switch', await time(clickTab(tab), painted(before)));
      await tiles.first().waitFor();
    }
    let before = await firstId();
    note(
      'page change',
      await time(
        `[...document.querySelectorAll('button')].find((b) => b.textContent === '2' && b.closest('.mantine-Pagination-root')).click()`,
        painted(before),
      ),
    );
    before = await firstId();
    note(
      'page change',
      await time(
        `[...document.querySelectorAll('button')].find((b) => b.textContent === '1' && b.closest('.mantine-Pagination-root')).click()`,
        painted(before),
      ),
    );
    for (let k = 0; k < 3; k++) {
      const n = 10 * round + k;
      const tile = `document.querySelectorAll('[data-testid="snapshot-tile"]')[${n}]`;
      note(
        'favourite',
        await time(
          `window.was = ${tile}.hasAttribute('data-favorite'); ${tile}.querySelector('[aria-pressed]').click()`,
          `${tile}.hasAttribute('data-favorite') !== window.was`,
        ),
      );
      note(
        'select',
        await time(`${tile}.querySelector('input[type="checkbox"]').click()`, `${tile}.hasAttribute('data-selected')`),
      );
      await page.evaluate(`${tile}.querySelector('input[type="checkbox"]').click()`);
      // Ban: the tile's ban menu, then the confirmation; timed from the confirming click.
      await tiles.nth(n).getByRole('button', { name: 'Ban menu' }).click();
      await page.getByRole('menuitem', { name: /Ban Photo|Unban Photo/ }).click();
      const confirmNeeded = await page
        .getByRole('button', { name: 'Confirm' })
        .waitFor({ timeout: 2000 })
        .then(() => true)
        .catch(() => false);
      if (confirmNeeded) {
        note(
          'ban',
          await time(
            `window.was = ${tile}.hasAttribute('data-hidden'); [...document.querySelectorAll('button')].find((b) => b.textContent === 'Confirm').click()`,
            `${tile}.hasAttribute('data-hidden') !== window.was`,
          ),
        );
      }
      await page.mouse.move(1, 1);
    }
  }
  const long = await page.evaluate<{ start: number; ms: number }[]>(
    `window.longTasks.filter((t) => t.start >= ${since})`,
  );
  console.log('album in Chromium (100 tiles a page, 300 photos + the simulator’s), ms to the painted change:');
  for (const [what, ms] of Object.entries(figures)) {
    const sorted = [...ms].sort((a, b) => a - b);
    console.log(
      `  ${what}: median ${sorted[Math.floor(sorted.length / 2)].toFixed(0)}, max ${sorted.at(-1)!.toFixed(0)} (${ms.length} runs: ${ms.map((m) => m.toFixed(0)).join(' ')})`,
    );
  }
  console.log(
    `  long tasks during the album work: ${long.length}, longest ${long.length ? Math.max(...long.map((t) => t.ms)).toFixed(0) : 0} ms`,
  );
  await context.close();
}

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
      // Files under 1 KiB are not precompressed (sent as they are): counted compressed here.
      gz: await sizeOf(path.join(assets, `${f}.gz`)).catch(
        async () => gzipSync(await readFile(path.join(assets, f)), { level: 9 }).length,
      ),
      br: await sizeOf(path.join(assets, `${f}.br`)).catch(
        async () => brotliCompressSync(await readFile(path.join(assets, f))).length,
      ),
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
  // BENCH_SECONDS=0 skips the streams (the album alone).
  if (SECONDS > 0) {
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
  }

  // 5. The album in Chromium (issue 10, point 3): 300 photos in the simulator's live event
  // (its cameras keep adding more), 100 tiles a page; each action is timed inside the page
  // from the click to the frame after the change is in the DOM (rAF, then a task: the paint).
  await albumBench();
} finally {
  await stack.close();
}
