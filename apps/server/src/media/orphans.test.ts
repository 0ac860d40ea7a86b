import { spawn, type ChildProcess } from 'node:child_process';
import { watch } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { DEVICE_TOKEN } from '../test/harness.ts';
import { freePort, SocketPool, uploadPhoto } from '../test/realtime.ts';

/**
 * Issue 16 §11 (docs/security.md §11): a server killed with SIGKILL in the middle of photo
 * uploads leaves, after its next start, no photo files without a row. A real child process
 * (PGlite in its data folder) is killed the moment a photo file is being written, which is
 * always before that photo's row is recorded.
 */
const repoRoot = path.resolve(import.meta.dirname, '../../../..');
const ADMIN_PASSWORD = 'orphan-test-password';
const PHOTO_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function start(dataDir: string, port: number) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      SIMULATOR: 'off',
      LOG_LEVEL: 'info',
      DEVICE_TOKEN,
      ADMIN_PASSWORD,
      DATABASE_URL: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out = { text: '' };
  child.stdout.on('data', (d: Buffer) => (out.text += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out.text += d.toString()));
  const exited = new Promise<void>((r) => child.on('exit', () => r()));
  return { child, out, exited };
}

const photoFolders = async (eventDir: string) =>
  (await readdir(eventDir).catch(() => [] as string[])).filter((n) => PHOTO_ID.test(n));
const tempFiles = async (dir: string) =>
  (await readdir(dir, { recursive: true })).filter((n) => String(n).endsWith('.tmp'));

describe('kill -9 mid-upload (issue 16 §11)', () => {
  it('leaves no photo files without a row after the next start', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'stadiumcam-orphans-'));
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const eventDir = path.join(dataDir, 'media', 'stadiumcam');
    let running: ChildProcess | undefined;
    const ready = async () =>
      expect
        .poll(async () => (await fetch(`${url}/readyz`).catch(() => null))?.status, { timeout: 120_000, interval: 500 })
        .toBe(200);
    try {
      const first = start(dataDir, port);
      running = first.child;
      await ready();
      const pool = new SocketPool(() => url);
      await pool.host('host-orphans', [{ camera: 'k1' }]);
      const image = await sharp({ create: { width: 2400, height: 1600, channels: 3, background: '#884422' } })
        .jpeg()
        .toBuffer();
      const meta = { slugDate: 'stadiumcam', userId: 'fan-k', camera: 'k1', section: '1', row: 'A', seat: '1' };
      const done = await uploadPhoto(url, { metadata: meta, image });
      expect(done.status).toBe(200);
      const kept = done.body._id as string;

      // Kill the moment a new photo's folder appears (its files are being written): before its
      // row exists. Not on a .tmp file: the writer thread makes and renames it faster than a
      // recursive watch adds the new folder.
      const acked = new Set<string>([kept]);
      const killed = new Promise<void>((resolve) => {
        const watcher = watch(eventDir, (_kind, name) => {
          if (!name || name === kept) return;
          first.child.kill('SIGKILL');
          watcher.close();
          resolve();
        });
      });
      const uploads = Array.from({ length: 6 }, () =>
        uploadPhoto(url, { metadata: meta, image })
          .then((res) => res.status === 200 && acked.add(res.body._id as string))
          .catch(() => undefined),
      );
      await killed;
      await first.exited;
      await Promise.all(uploads);
      pool.closeAll();
      // The crash did leave a photo folder that no answer acknowledged.
      const left = await photoFolders(eventDir);
      expect(left.filter((id) => !acked.has(id)).length).toBeGreaterThan(0);

      const second = start(dataDir, port);
      running = second.child;
      await ready();
      await expect.poll(() => second.out.text, { timeout: 60_000, interval: 200 }).toContain('orphan media swept');

      const login = await fetch(`${url}/api/users/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: url },
        body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
      });
      const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
      const after = await photoFolders(eventDir);
      expect(after).toContain(kept);
      // Every folder left belongs to a photo the album can show, ban and delete.
      for (const id of after) {
        const res = await fetch(`${url}/api/snapshots/${id}`, { headers: { cookie } });
        expect(res.status, `${id} (kept ${kept}, acked ${[...acked].join(' ')})\n${second.out.text}`).toBe(200);
      }
      expect(await tempFiles(path.join(dataDir, 'media'))).toEqual([]);
      // The camera originals (outside /media) follow the same rule.
      expect((await readdir(path.join(dataDir, 'originals'))).sort()).toEqual([...after].sort());
    } finally {
      running?.kill('SIGKILL');
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 300_000);
});
