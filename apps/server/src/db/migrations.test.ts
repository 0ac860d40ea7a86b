import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../../..');
const migrations = path.join(import.meta.dirname, 'migrations');

it('the drizzle schema and the checked-in migrations agree', () => {
  // drizzle-kit writes a new migration when the schema differs from the last snapshot.
  // drizzle-kit takes the out folder relative to the repository.
  mkdirSync(path.join(root, '.tmp'), { recursive: true });
  const out = mkdtempSync(path.join(root, '.tmp', 'migrations-'));
  try {
    cpSync(migrations, out, { recursive: true });
    const before = readdirSync(out).sort();
    execFileSync(
      path.join(root, 'node_modules/.bin/drizzle-kit'),
      ['generate', '--config', 'apps/server/drizzle.config.ts'],
      {
        cwd: root,
        env: { ...process.env, DRIZZLE_OUT: path.relative(root, out) },
        stdio: 'pipe',
      },
    );
    expect(readdirSync(out).sort(), 'run `npm run db:generate` and commit the migration').toEqual(before);
    expect(readdirSync(path.join(out, 'meta')).length).toBeGreaterThan(1);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
