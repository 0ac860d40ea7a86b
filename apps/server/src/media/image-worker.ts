import { parentPort } from 'node:worker_threads';
import { AppError } from '../errors.ts';
import { runJob, type ImageJob } from './image-pool.ts';

// One image job at a time (the pool hands the next when this one answers).
parentPort!.on('message', ({ job }: { job: ImageJob }) => {
  runJob(job).then(
    (result) => parentPort!.postMessage({ result }),
    (err: unknown) => {
      const app = err instanceof AppError ? { status: err.statusCode, code: err.code } : {};
      parentPort!.postMessage({ error: { ...app, message: err instanceof Error ? err.message : String(err) } });
    },
  );
});
