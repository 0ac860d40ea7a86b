import type { Readiness } from '@stadiumcam/contract';
import type { Deps } from '../../deps.ts';
import { pingDatabase } from './ops.repository.ts';

const CHECK_TIMEOUT_MS = 2000;

/** Resolves with the check's outcome: 'ok', the error's message, or a timeout. */
async function check(run: () => Promise<unknown>): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`no answer within ${CHECK_TIMEOUT_MS} ms`), CHECK_TIMEOUT_MS);
  });
  try {
    return await Promise.race([run().then(() => 'ok'), timeout]);
  } catch (err) {
    return (err as Error).message.split('\n')[0] || 'failed';
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Readiness (docs/operations.md): the database answers, the media store can be written (S3:
 * HeadBucket) and, with several instances, Redis answers.
 */
export async function readiness(deps: Deps): Promise<Readiness> {
  const redis = deps.cluster.redis;
  const [database, media, shared] = await Promise.all([
    check(() => pingDatabase(deps.db)),
    check(() => deps.media.check()),
    redis ? check(() => redis.ping()) : Promise.resolve(null),
  ]);
  const checks = { database, media, ...(shared ? { redis: shared } : {}) };
  const ok = Object.values(checks).every((c) => c === 'ok');
  return { status: deps.ops.draining ? 'draining' : ok ? 'ready' : 'not ready', checks };
}
