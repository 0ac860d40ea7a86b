import { Worker } from 'node:worker_threads';
import type { MsgKey } from '@stadiumcam/contract';
import { AppError } from '../errors.ts';
import { compositeOnto, makeRenditions, type ImageProbe, type PlacedLayer } from './images.ts';

export type Renditions = { probe: ImageProbe; raw: Buffer; small: Buffer; thumb: Buffer };
export type ImageJob =
  | { kind: 'renditions'; data: Uint8Array; capturedAt: number }
  | { kind: 'composite'; photo: Uint8Array; layers: PlacedLayer[] };

/**
 * The photos' image work (renditions of an upload, a share's composite), `size` jobs at a time,
 * in worker threads (IMAGE_WORKERS, default the cores; docs/bench-realtime.md) or, with 0, in
 * this process on sharp's libuv threads. The jobs past `size` wait in order here, which is what
 * `waitMs` estimates: the ingest sheds a photo that would wait too long (ingest.service.ts).
 */
export type ImagePool = {
  renditions: (data: Buffer, capturedAt: Date) => Promise<Renditions>;
  composite: (photo: Buffer, layers: PlacedLayer[]) => Promise<Buffer>;
  /** How long a job handed over now would wait for a free slot (ms, from the recent jobs' times). */
  waitMs: () => number;
  /** Jobs running and waiting. */
  pending: () => number;
  close: () => Promise<void>;
};

type Slot = { run: (job: ImageJob) => Promise<unknown>; close: () => Promise<unknown> };

const asBuffer = (u: Uint8Array) => Buffer.from(u.buffer, u.byteOffset, u.byteLength);

/** In this process: as many at once as libuv has threads for sharp (UV_THREADPOOL_SIZE, 4). */
const IN_PROCESS_SLOTS = 4;

function inProcessSlot(): Slot {
  return { run: (job) => runJob(job), close: async () => undefined };
}

/** What a worker runs (image-worker.ts) and what a slot in this process runs: the same code. */
export async function runJob(job: ImageJob): Promise<unknown> {
  if (job.kind === 'renditions') return makeRenditions(asBuffer(job.data), new Date(job.capturedAt));
  const layers = job.layers.map((l) => ({ ...l, data: asBuffer(l.data) }));
  return compositeOnto(asBuffer(job.photo), layers);
}

// The server runs under tsx (`node --import tsx`), which a worker does not inherit for a .ts entry
// on Node 20: the worker starts from this line of JavaScript and loads its TypeScript through tsx.
const TSX_API = import.meta.resolve('tsx/esm/api');
const WORKER_ENTRY = new URL('./image-worker.ts', import.meta.url).href;
const BOOT = `import(${JSON.stringify(TSX_API)}).then(({ tsImport }) => tsImport(${JSON.stringify(WORKER_ENTRY)}, ${JSON.stringify(WORKER_ENTRY)}))`;

function workerSlot(onCrash: (err: unknown) => void): Slot {
  let worker: Worker;
  let current: { resolve: (v: unknown) => void; reject: (e: unknown) => void } | null = null;
  let closing = false;
  // A worker that ever answered is started again when it dies; one that dies before (it cannot
  // load) is not, and its jobs fail (no restart loop).
  let answered = false;
  const start = () => {
    worker = new Worker(BOOT, { eval: true });
    worker.unref();
    worker.on('message', (m: { result?: unknown; error?: { status?: number; code?: MsgKey; message: string } }) => {
      answered = true;
      const c = current;
      current = null;
      if (!c) return;
      if (m.error)
        c.reject(
          m.error.status && m.error.code
            ? new AppError(m.error.status, { code: m.error.code, text: m.error.message })
            : new Error(m.error.message),
        );
      else c.resolve(m.result);
    });
    worker.on('error', (err) => onCrash(err));
    worker.on('exit', () => {
      current?.reject(new Error('image worker stopped'));
      current = null;
      if (!closing && answered) start();
      else closing = true;
    });
  };
  start();
  const fromClone = (r: unknown): unknown => {
    if (r instanceof Uint8Array) return asBuffer(r);
    if (r && typeof r === 'object' && !Array.isArray(r))
      return Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v instanceof Uint8Array ? asBuffer(v) : v]));
    return r;
  };
  return {
    run: (job) =>
      new Promise((resolve, reject) => {
        if (closing) return reject(new Error('image worker stopped'));
        current = { resolve: (r) => resolve(fromClone(r)), reject };
        worker.postMessage({ job });
      }),
    close: () => {
      closing = true;
      return worker.terminate();
    },
  };
}

export function createImagePool(size: number, onCrash: (err: unknown) => void = () => undefined): ImagePool {
  // Workers start with the first job (most test apps never make one).
  const count = size > 0 ? size : IN_PROCESS_SLOTS;
  let slots: Slot[] | null = null;
  let free: Slot[] = [];
  const waiting: { job: ImageJob; resolve: (v: unknown) => void; reject: (e: unknown) => void }[] = [];
  // The recent jobs' time from start to end (ms), smoothed: what a slot frees up in.
  let jobMs = 50;
  let busy = 0;

  const next = () => {
    if (!slots) {
      slots = Array.from({ length: count }, () => (size > 0 ? workerSlot(onCrash) : inProcessSlot()));
      free = [...slots];
    }
    while (free.length && waiting.length) {
      const slot = free.pop()!;
      const { job, resolve, reject } = waiting.shift()!;
      busy++;
      const started = performance.now();
      slot
        .run(job)
        .then(resolve, reject)
        .finally(() => {
          jobMs = 0.9 * jobMs + 0.1 * (performance.now() - started);
          busy--;
          free.push(slot);
          next();
        });
    }
  };
  const submit = (job: ImageJob) =>
    new Promise<unknown>((resolve, reject) => {
      waiting.push({ job, resolve, reject });
      next();
    });

  return {
    renditions: async (data, capturedAt) =>
      (await submit({ kind: 'renditions', data, capturedAt: capturedAt.getTime() })) as Renditions,
    composite: async (photo, layers) => (await submit({ kind: 'composite', photo, layers })) as Buffer,
    waitMs: () => (busy < count ? 0 : ((waiting.length + 1) / count) * jobMs),
    pending: () => busy + waiting.length,
    close: async () => {
      await Promise.all((slots ?? []).map((s) => s.close()));
    },
  };
}
