import { spawn } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { MSG, authRoutes, eventsRoutes, snapshotsRoutes } from '@stadiumcam/contract';
import { createTestApp, type TestApp } from '../test/harness.ts';
import { SocketPool, listenUrl, uploadPhoto } from '../test/realtime.ts';

const repoRoot = path.resolve(import.meta.dirname, '../../../..');

// Issue 16 §10: the small ones.
describe('input and transport rules', () => {
  let t: TestApp;
  let url = '';
  const pool = new SocketPool(() => url);
  let dataDir = '';
  beforeAll(async () => {
    dataDir = path.join(await mkdtemp(path.join(os.tmpdir(), 'stadiumcam-perm-')), 'data');
    t = await createTestApp('pglite', { dataDir, mediaDir: path.join(dataDir, 'media') });
    url = await listenUrl(t);
    await pool.host('host-input', [{ camera: 'ip1' }]);
  }, 180_000);
  afterAll(async () => {
    pool.closeAll();
    await t?.close();
    await rm(path.dirname(dataDir), { recursive: true, force: true });
  });

  it('answers 400 (never 500) to a NUL or a bidi override anywhere in the input, and changes nothing', async () => {
    const cookie = await t.adminCookie();
    const bad = [
      await t.call(authRoutes.login, { body: { username: 'adm\u0000in', password: 'x' } }),
      await t.call(snapshotsRoutes.list, { cookie, query: { slugDate: ['stadium\u0000cam'] } }),
      await t.call(snapshotsRoutes.banUser, { cookie, body: { userId: 'fan\u0000', banStatus: true } }),
      await t.call(snapshotsRoutes.get, { cookie, params: { id: 'x\u0000y' } }),
      await t.call(eventsRoutes.update, {
        cookie,
        body: { slugDate: 'stadiumcam', data: { title: 'Home \u202Egnp.exe' } },
      }),
    ];
    for (const res of bad) expect(res).toMatchObject({ status: 400, body: { error: MSG.security.forbiddenChars } });
    const upload = await uploadPhoto(url, {
      metadata: { slugDate: 'stadiumcam', userId: 'fan\u0000x', camera: 'ip1', section: '1', row: 'A', seat: '1' },
      image: await sharp({ create: { width: 64, height: 48, channels: 3, background: '#888' } })
        .jpeg()
        .toBuffer(),
    });
    expect(upload).toMatchObject({ status: 400, body: { error: MSG.security.forbiddenChars } });
  });

  it('answers a pixel bomb with 413 as documented', async () => {
    // 50 megapixels of one colour: a small PNG, too many pixels to decode.
    const bomb = await sharp({ create: { width: 10_000, height: 5_000, channels: 3, background: '#000' } })
      .png({ compressionLevel: 9 })
      .toBuffer();
    const res = await uploadPhoto(url, {
      metadata: { slugDate: 'stadiumcam', userId: 'fan-bomb', camera: 'ip1', section: '1', row: 'A', seat: '1' },
      image: bomb,
      imageType: 'image/png',
    });
    expect(res).toMatchObject({ status: 413, body: { error: MSG.security.tooManyPixels } });
  });

  it('keeps the data folder to its owner (0700)', async () => {
    expect((await stat(dataDir)).mode & 0o777).toBe(0o700);
    // The media folder made at start too (it may be configured outside the data folder).
    expect((await stat(path.join(dataDir, 'media'))).mode & 0o777).toBe(0o700);
  });

  it('sends HSTS only over TLS and lets other origins embed /media', async () => {
    const plain = await fetch(`${url}/api/users/user`);
    expect(plain.headers.get('strict-transport-security')).toBeNull();
    const media = await t.app.inject({ url: '/media/stadiumcam/overlays/demo-classic.png' });
    expect(media.statusCode).toBe(200);
    expect(media.headers['cross-origin-resource-policy']).toBe('cross-origin');
    const api = await t.app.inject({ url: '/api/users/user' });
    expect(api.headers['cross-origin-resource-policy']).toBe('same-origin');
    // helmet's headers on every answer (built once at start, docs/security.md).
    expect(api.headers['content-security-policy']).toContain("img-src 'self' data: blob:");
    expect(api.headers['content-security-policy']).toContain("connect-src 'self' ws: wss:");
    expect(api.headers['content-security-policy']).not.toContain('upgrade-insecure-requests');
    expect(api.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(api.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('TRUST_PROXY and TLS', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('pglite', { trustProxy: 1 });
  }, 180_000);
  afterAll(async () => t?.close());

  it('sends HSTS when the request came over TLS (through the trusted proxy)', async () => {
    const res = await t.app.inject({ url: '/api/users/user', headers: { 'x-forwarded-proto': 'https' } });
    expect(res.headers['strict-transport-security']).toMatch(/max-age=/);
  });
});

describe('a bad DATABASE_URL', () => {
  it('prints one clear line, the cause first, and exits 1', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'stadiumcam-baddb-'));
    const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
      cwd: repoRoot,
      env: {
        ...process.env,
        DATA_DIR: dir,
        DATABASE_URL: 'postgres://nobody:secret@127.0.0.1:1/none',
        SIMULATOR: 'off',
        PORT: '0',
        LOG_LEVEL: 'silent',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    await rm(dir, { recursive: true, force: true });
    expect(code).toBe(1);
    const lines = stderr.split('\n').filter((l) => l.trim() && !l.includes('ExperimentalWarning'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\s*Cannot start: .*ECONNREFUSED.*\(check DATABASE_URL\)$/);
    expect(stderr).not.toContain('secret');
  }, 120_000);
});
