import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { precompress } from '../../../../../vite-precompress.ts';

/*
 * Issue 30, the fans bench's first finding: the attendee app's files are compressed once at build
 * (the build's own plugin, run here on a small dist) and sent as they are, hashed assets cached for
 * a year, the rest revalidated, and the page always the event's.
 */
describe('attendee app files: precompressed at build, cached by name', () => {
  let dir = '';
  let t: TestApp;
  const script = `console.log(${JSON.stringify('stadium '.repeat(800))});\n`;
  const sw = `self.addEventListener('install', () => ${JSON.stringify('precache '.repeat(300))});\n`;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'attendee-dist-'));
    await mkdir(path.join(dir, 'assets'));
    await writeFile(path.join(dir, 'index.html'), '<title>%APP_TITLE%</title>' + '<!-- app -->'.repeat(200));
    await writeFile(path.join(dir, 'assets', 'index-AbC123.js'), script);
    await writeFile(path.join(dir, 'sw.js'), sw);
    await writeFile(path.join(dir, 'icon-192.png'), Buffer.alloc(300, 7));
    const plugin = precompress() as unknown as {
      configResolved: (c: unknown) => void;
      closeBundle: () => Promise<void>;
    };
    plugin.configResolved({ root: dir, build: { outDir: '.' } });
    await plugin.closeBundle();
    t = await createTestApp('pglite', { attendeeDist: dir });
  });
  afterAll(async () => {
    await t?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

  it('sends the .br or .gz the build wrote, as it is, by the phone’s Accept-Encoding; a hashed asset for a year', async () => {
    const url = '/app/assets/index-AbC123.js';
    const br = await get(url, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.headers['content-type']).toMatch(/javascript/);
    // The build's file byte for byte: not compressed again per request.
    expect(br.rawPayload.equals(await readFile(path.join(dir, 'assets', 'index-AbC123.js.br')))).toBe(true);
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(script);

    const gz = await get(url, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.rawPayload.equals(await readFile(path.join(dir, 'assets', 'index-AbC123.js.gz')))).toBe(true);
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(script);

    const plain = await get(url);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);

    // A phone that has it asks again with its ETag: 304, nothing sent.
    const again = await get(url, { 'accept-encoding': 'br', 'if-none-match': String(br.headers.etag) });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
  });

  it('revalidates the files that keep their name (sw.js, icons), and the page is the event’s, never cached', async () => {
    const worker = await get('/app/sw.js', { 'accept-encoding': 'br' });
    expect([worker.statusCode, worker.headers['content-encoding'], worker.headers['cache-control']]).toEqual([
      200,
      'br',
      'no-cache',
    ]);
    expect(zlib.brotliDecompressSync(worker.rawPayload).toString()).toBe(sw);
    // Below 1 KiB nothing is written beside it: sent as it is.
    const icon = await get('/app/icon-192.png', { 'accept-encoding': 'br' });
    expect([icon.statusCode, icon.headers['content-encoding'], icon.headers['cache-control']]).toEqual([
      200,
      undefined,
      'no-cache',
    ]);
    for (const url of ['/app/', '/app/index.html', '/app/queue']) {
      const page = await get(url, { 'accept-encoding': 'identity' });
      expect([page.statusCode, page.headers['cache-control']]).toEqual([200, 'no-cache']);
      expect(page.body).toMatch(/^<title>[^%<]+<\/title>/);
    }
  });
});
