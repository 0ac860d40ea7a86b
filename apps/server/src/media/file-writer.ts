import { Worker } from 'node:worker_threads';

/**
 * The worker: each file written atomically (folder, temp file, rename), one after the other.
 * Plain JavaScript evaluated as is, so it runs the same under tsx, vitest and a build.
 */
const SOURCE = `
const { parentPort } = require('node:worker_threads');
const fs = require('node:fs');
const path = require('node:path');
const { randomBytes } = require('node:crypto');
parentPort.on('message', ({ id, file, data, dirMode }) => {
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: dirMode });
    const tmp = file + '.' + randomBytes(4).toString('hex') + '.tmp';
    fs.writeFileSync(tmp, data);
    fs.renameSync(tmp, file);
    parentPort.postMessage({ id });
  } catch (err) {
    parentPort.postMessage({ id, error: { message: String(err && err.message), code: err && err.code } });
  }
});
`;

type Reply = { id: number; error?: { message: string; code?: string } };

/**
 * Writes media files on a thread of their own. On libuv's four shared threads a photo's four
 * files waited behind image work (p50 119 ms, p99 508 ms at 10 photos a second), and written
 * synchronously they blocked the event loop on the file system's locks instead
 * (docs/bench-realtime.md).
 */
export class FileWriter {
  private worker: Worker | null = null;
  private lastId = 0;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly waiting = new Map<number, { resolve: () => void; reject: (err: Error) => void }>();

  write(file: string, data: Buffer, dirMode?: number): Promise<void> {
    const worker = (this.worker ??= this.start());
    const id = ++this.lastId;
    // A copy the worker owns: the caller's buffer may be a view of a larger one.
    const bytes = new Uint8Array(data);
    const written = new Promise<void>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      worker.postMessage({ id, file, data: bytes, dirMode }, [bytes.buffer]);
    });
    const settled = written.catch(() => {}).finally(() => this.inFlight.delete(settled));
    this.inFlight.add(settled);
    return written;
  }

  private start(): Worker {
    const worker = new Worker(SOURCE, { eval: true });
    worker.unref();
    worker.on('message', ({ id, error }: Reply) => {
      const w = this.waiting.get(id);
      this.waiting.delete(id);
      if (!w) return;
      if (error) w.reject(Object.assign(new Error(error.message), { code: error.code }));
      else w.resolve();
    });
    // A worker that dies fails what it held; the next write starts another.
    const fail = (err: Error) => {
      if (this.worker === worker) this.worker = null;
      for (const w of this.waiting.values()) w.reject(err);
      this.waiting.clear();
    };
    worker.on('error', fail);
    worker.on('exit', () => fail(new Error('file writer stopped')));
    return worker;
  }

  /** After the writes under way. */
  async close(): Promise<void> {
    await Promise.all(this.inFlight);
    const worker = this.worker;
    this.worker = null;
    await worker?.terminate();
  }
}
