import { sql } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDb } from '../../test/harness.ts';
import { makeEvent, makePhoto } from '../../test/factories.ts';
import { PageAnchors } from './snapshots.anchors.ts';
import * as repo from './snapshots.repository.ts';
import type { SnapshotType } from '@stadiumcam/contract';

const EVENT = 'stadiumcam-2030-02-01';
const EVERY = 10;
const rethrow = (err: unknown) => {
  throw err;
};
const at = (second: number) => new Date(Date.UTC(2030, 1, 1, 18, 0, 0) + second * 1000);

/*
 * Anchors every 10th photo on a 250-photo event: every page the anchors serve must equal the
 * plain offset walk (the reference) after appends, moves in the middle, edits that move
 * nothing, and a pruned change log.
 */
describeEachDb('page anchors', (t) => {
  const db = () => t().app.deps.db;
  let anchors: PageAnchors;
  let next = 0;
  const add = async (n: number, second: (i: number) => number, over: Partial<repo.SnapshotInsert> = {}) => {
    for (let i = 0; i < n; i++, next++)
      await makePhoto(db(), {
        id: `p${String(next).padStart(4, '0')}`,
        slugDate: EVENT,
        userId: 'fan',
        date: at(second(next)),
        favorite: next % 3 === 0,
        ...over,
      });
  };
  const base = (type: SnapshotType) => ({ filter: { slugDate: [EVENT] }, type, sortField: 'date' as const });

  /** Every page of 7 (odd, so pages straddle anchors) read both ways, as the reference reads it. */
  async function expectEveryPage(type: SnapshotType) {
    const c = await repo.counters(db(), [EVENT]);
    const total = repo.storedTotal(c, type);
    const reference = await repo.pageIds(db(), { ...base(type), sortOrder: 'asc', offset: 0, limit: 10_000 });
    expect(reference).toHaveLength(total);
    for (let first = 0; first < total; first += 7) {
      const limit = Math.min(7, total - first);
      expect(await anchors.page(base(type), EVENT, first, limit, total, c.version)).toEqual(
        reference.slice(first, first + limit),
      );
    }
  }
  const state = async (type: SnapshotType = 'all') => {
    const s = (await anchors.current(EVENT, type))!;
    return { anchors: s.anchors.length, valid: s.valid };
  };

  beforeAll(async () => {
    await makeEvent(db(), EVENT);
    await add(250, (i) => i);
    // Rebuilds walk 3 anchors (30 photos) at a time, so they take several stretches.
    anchors = new PageAnchors(db(), rethrow, { every: EVERY, stretch: 3 });
  });

  it('builds the anchors on the first deep page and serves every page from them', async () => {
    expect(await anchors.current(EVENT, 'all')).toBeUndefined();
    await expectEveryPage('all');
    await anchors.settled();
    expect(await state()).toEqual({ anchors: 25, valid: 25 });
    await expectEveryPage('all');
    await expectEveryPage('favorites');
    await anchors.settled();
    expect(await state('favorites')).toEqual({ anchors: 9, valid: 9 });
  });

  it('builds a tab on warming only when it is deeper than two anchors', async () => {
    const fresh = new PageAnchors(db(), rethrow, { every: EVERY });
    fresh.warm(EVENT, 'all');
    fresh.warm(EVENT, 'magicshots');
    await fresh.settled();
    expect((await fresh.current(EVENT, 'all'))?.valid).toBe(25);
    expect(await fresh.current(EVENT, 'magicshots')).toMatchObject({ anchors: [], valid: 0 });
  });

  it('keeps every anchor when photos arrive at the newest end', async () => {
    await add(30, (i) => i);
    expect(await state()).toEqual({ anchors: 25, valid: 25 });
    await expectEveryPage('all');
    expect(await state()).toEqual({ anchors: 25, valid: 25 });
  });

  it('keeps the anchors older than a photo moved in the middle and rebuilds only the rest', async () => {
    await anchors.settled();
    const before = (await anchors.current(EVENT, 'all'))!.anchors;
    // p0125 is at position 125: anchors 0..12 (positions 0..120) stay exact.
    await db().execute(sql`delete from snapshots where id = 'p0125'`);
    expect((await state()).valid).toBe(13);
    await expectEveryPage('all');
    await anchors.settled();
    const after = (await anchors.current(EVENT, 'all'))!;
    expect(after.valid).toBe(after.anchors.length);
    expect(after.anchors.slice(0, 13)).toEqual(before.slice(0, 13));
    expect(after.anchors[13].id).toBe('p0131');
    await expectEveryPage('all');
    // A favourite moves a photo into the favorites tab at its date: that tab's anchors after
    // it are stale, the All tab's are not.
    await expectEveryPage('favorites');
    await anchors.settled();
    await anchors.settled();
    const all = await state('all');
    await db().execute(sql`update snapshots set favorite = true where id = 'p0040'`);
    expect((await state('favorites')).valid).toBe(2);
    // The All tab keeps its order: none of its anchors is touched.
    expect(await state('all')).toEqual({ anchors: all.anchors, valid: all.anchors });
    await expectEveryPage('favorites');
  });

  it('keeps every anchor through an edit that moves nothing', async () => {
    await anchors.settled();
    await expectEveryPage('all');
    const { anchors: n } = await state();
    await db().execute(sql`update snapshots set overlay = 'overlay1', faces = '[]' where id = 'p0010'`);
    expect(await state()).toEqual({ anchors: n, valid: n });
    await expectEveryPage('all');
  });

  it('rebuilds from scratch when the change log was pruned past the anchors', async () => {
    await anchors.settled();
    await expectEveryPage('all');
    const { version } = (await anchors.current(EVENT, 'all'))!;
    await add(1, () => 5);
    await db().execute(sql`delete from snapshot_changes where slug_date = ${EVENT} and version <= ${version + 1}`);
    await add(1, (i) => i);
    expect((await state()).valid).toBe(0);
    await expectEveryPage('all');
    await anchors.settled();
    await expectEveryPage('all');
    const rebuilt = await state();
    expect(rebuilt.valid).toBe(rebuilt.anchors);
  });
});
