import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { openDatabase } from './client.ts';
import { rowsOf, type SnapshotInsert } from '../modules/snapshots/snapshots.repository.ts';
import { snapshots } from './schema/index.ts';
import { makeEvent, photoRow } from '../test/factories.ts';

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

it('the migrations create the album counter triggers, and they count', async () => {
  const { db, close } = await openDatabase({ pgliteDir: 'memory://' });
  try {
    const triggers = await db.execute(sql`select tgname from pg_trigger
      where tgrelid = 'snapshots'::regclass and not tgisinternal order by tgname`);
    expect(rowsOf<{ tgname: string }>(triggers).map((r) => r.tgname)).toEqual([
      'snapshot_counts_del',
      'snapshot_counts_ins',
      'snapshot_counts_upd',
    ]);
    const slugDate = 'e-2026-01-01';
    await makeEvent(db, slugDate, { id: randomUUID(), timezone: 'UTC' });
    // One statement for the three photos: the triggers run once per statement (version 1).
    const photo = (over: Partial<SnapshotInsert> = {}) => photoRow({ slugDate, id: randomUUID(), ...over });
    await db.insert(snapshots).values([photo(), photo({ favorite: true }), photo({ magicshot: true })]);
    await db
      .update(snapshots)
      .set({ favorite: true })
      .where(sql`not ${snapshots.favorite} and not ${snapshots.magicshot}`);
    const counts = await db.execute(
      sql`select all_count, favorite_count, magicshot_count, shared_count, version from snapshot_counts`,
    );
    expect(rowsOf(counts)).toEqual([
      { all_count: 2, favorite_count: 2, magicshot_count: 1, shared_count: 0, version: 2 },
    ]);
  } finally {
    await close();
  }
});
