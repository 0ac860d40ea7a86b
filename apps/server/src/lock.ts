import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';

/**
 * PGlite allows one process per data directory; a second server must fail fast instead
 * of corrupting it. The lock file holds the owner's pid; a stale one (dead pid) is taken over.
 */
export function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = path.join(dataDir, 'server.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(file, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const pid = Number(readFileSync(file, 'utf8').trim());
      if (pid && pid !== process.pid && isAlive(pid)) {
        throw new Error(
          `DATA_DIR ${dataDir} is in use by another server (pid ${pid}). Stop it, or set DATA_DIR to another folder.`,
        );
      }
      rmSync(file, { force: true });
    }
  }
  throw new Error(`Could not lock DATA_DIR ${dataDir}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The innermost cause of a failed start, in one line, with where to look. */
export function startupFailure(err: unknown, databaseUrl: string | undefined): string {
  let e: unknown = err;
  while (e instanceof Error && e.cause) e = e.cause;
  const code = (e as { code?: string }).code;
  const text = (e instanceof Error ? e.message : String(e)).split('\n')[0] || String(code ?? 'unknown error');
  // A message that names its own setting (REDIS_URL, S3_...) needs no DATABASE_URL hint.
  const where = databaseUrl && !/\(check [A-Z_0-9]+\)/.test(text) ? ' (check DATABASE_URL)' : '';
  return `${code && !text.includes(code) ? `${code} ` : ''}${text}${where}`;
}
