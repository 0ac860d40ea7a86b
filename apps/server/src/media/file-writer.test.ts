import { mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FileWriter } from './file-writer.ts';

describe('FileWriter: media files written on a thread of their own', () => {
  const writer = new FileWriter();
  let dir = '';
  afterAll(async () => {
    await writer.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('writes many files at once, folders made, no temp file left; a failed write rejects with its code', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'file-writer-'));
    const files = Array.from({ length: 40 }, (_, i) => path.join(dir, `event/${i % 4}/photo-${i}.jpg`));
    // A view into a larger buffer: only its own bytes are written.
    const big = Buffer.alloc(64 * 1024, 7);
    await Promise.all(files.map((f, i) => writer.write(f, big.subarray(i, i + 1000 + i))));
    for (const [i, f] of files.entries()) expect((await readFile(f)).length, f).toBe(1000 + i);
    expect((await readdir(path.join(dir, 'event/0'))).filter((n) => n.endsWith('.tmp'))).toEqual([]);

    await writeFile(path.join(dir, 'plain-file'), 'x');
    await expect(writer.write(path.join(dir, 'plain-file/inside.jpg'), Buffer.from('y'))).rejects.toMatchObject({
      code: expect.stringMatching(/^(ENOTDIR|EEXIST)$/),
    });
    // The writer goes on after a failure, and folders get the mode asked for.
    await writer.write(path.join(dir, 'private/original.jpg'), Buffer.from('z'), 0o700);
    expect((await stat(path.join(dir, 'private'))).mode & 0o777).toBe(0o700);
  });
});
