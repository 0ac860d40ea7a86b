import type { Db } from '../../db/client.ts';
import * as repo from './snapshots.repository.ts';
import type { SnapshotType } from '@stadiumcam/contract';
import type { Anchor, PageQuery } from './album-query.repository.ts';

/**
 * Deep pages of one event's tab in date order, without walking the tab from its end.
 *
 * Anchors are every `every`-th photo of the tab counted from the oldest, so photos arriving
 * at the newest end (a live event) do not move them. The change log (snapshot_changes,
 * written by the counter triggers) names the oldest date each statement moved; anchors older
 * than every change since they were built are still exact, the rest are rebuilt in the
 * background by walking only from the last exact anchor. A page is walked from its anchor
 * (fewer than `every` entries skipped) or, while its anchor is being rebuilt, from whichever
 * of the last exact anchor and the two ends of the tab is nearest.
 */
type AnchorSet = {
  /** The last logged version folded in. */
  version: number;
  anchors: Anchor[];
  /** How many leading anchors are still exact. */
  valid: number;
};

type Base = Omit<PageQuery, 'sortOrder' | 'offset' | 'limit' | 'from'>;

export class PageAnchors {
  private readonly sets = new Map<string, AnchorSet>();
  private readonly building = new Map<string, Promise<void>>();

  readonly every: number;
  /** Anchors per walk of a rebuild (50,000 index entries at the default spacing). */
  private readonly stretch: number;
  /** Tabs kept (least recently used dropped). */
  private readonly keep: number;

  constructor(
    private readonly db: Db,
    private readonly onError: (err: unknown) => void,
    opts: { every?: number; stretch?: number; keep?: number } = {},
  ) {
    this.every = opts.every ?? 1000;
    this.stretch = opts.stretch ?? 50;
    this.keep = opts.keep ?? 50;
  }

  /** Settles when no rebuild is running. */
  async settled(): Promise<void> {
    while (this.building.size) await Promise.all(this.building.values());
  }

  /** The cached anchors of one tab with the changes since folded in (tests, benchmark). */
  async current(slugDate: string, type: SnapshotType): Promise<AnchorSet | undefined> {
    return this.refresh(keyOf(slugDate, type), slugDate, type);
  }

  /**
   * One page of ids in ascending date order: `first` is the position (from the oldest) of
   * its oldest photo, `total` the tab's stored count, `version` the event's counter version.
   */
  async page(
    base: Base,
    slugDate: string,
    first: number,
    limit: number,
    total: number,
    version: number,
  ): Promise<string[]> {
    const key = keyOf(slugDate, base.type);
    const set = await this.refresh(key, slugDate, base.type);
    const k = Math.floor(first / this.every);
    if (set && k < set.valid)
      return repo.pageIds(this.db, {
        ...base,
        sortOrder: 'asc',
        from: set.anchors[k],
        offset: first - k * this.every,
        limit,
      });
    const tail = set ? total - (set.anchors.length - 1) * this.every : total;
    if (!set || set.valid < set.anchors.length || tail > 10 * this.every)
      this.rebuild(key, slugDate, base.type, set, version);
    // The nearest start: the last exact anchor, the oldest end or the newest end.
    const last = set && set.valid > 0 ? set.valid - 1 : -1;
    const fromAnchor = last < 0 ? Infinity : first - last * this.every;
    const fromNewest = total - first - limit;
    if (fromAnchor <= Math.min(first, fromNewest))
      return repo.pageIds(this.db, { ...base, sortOrder: 'asc', from: set!.anchors[last], offset: fromAnchor, limit });
    if (first <= fromNewest) return repo.pageIds(this.db, { ...base, sortOrder: 'asc', offset: first, limit });
    return (await repo.pageIds(this.db, { ...base, sortOrder: 'desc', offset: fromNewest, limit })).reverse();
  }

  /** Folds the changes logged since the set was built or last refreshed. */
  private async refresh(key: string, slugDate: string, type: SnapshotType): Promise<AnchorSet | undefined> {
    const set = this.sets.get(key);
    if (!set) return undefined;
    const c = await repo.changesSince(this.db, slugDate, type, set.version);
    if (c.n === 0 || c.last === null) return set;
    // A gap (the log was pruned past this set's version) leaves nothing known to be exact.
    let valid = c.first === set.version + 1 ? set.valid : 0;
    if (c.us !== null) while (valid > 0 && set.anchors[valid - 1].us >= c.us) valid--;
    const next = { ...set, version: c.last, valid };
    // Only replace what is still cached (a rebuild may have finished meanwhile).
    if (this.sets.get(key) === set) this.store(key, next);
    return next;
  }

  /**
   * Starts building a tab's anchors before a deep page asks for them (the album was opened on
   * its first page): paging there by hand takes longer than the build.
   */
  warm(slugDate: string, type: SnapshotType): void {
    const key = keyOf(slugDate, type);
    if (this.sets.has(key) || this.building.has(key)) return;
    this.track(
      key,
      (async () => {
        const c = await repo.counters(this.db, [slugDate]);
        if (repo.storedTotal(c, type) > 2 * this.every) await this.build(key, slugDate, type, undefined, c.version);
        // A small tab is remembered without anchors: a deep page builds them once it has grown.
        else this.store(key, { version: c.version, anchors: [], valid: 0 });
      })(),
    );
  }

  /** Rebuilds the anchors after the last exact one, off the request path. */
  private rebuild(
    key: string,
    slugDate: string,
    type: SnapshotType,
    set: AnchorSet | undefined,
    version: number,
  ): void {
    if (!this.building.has(key)) this.track(key, this.build(key, slugDate, type, set, version));
  }

  /**
   * Walks the tab from the last exact anchor (or its start) in stretches of `stretch` anchors,
   * so other queries get the connection in between (PGlite has only one).
   */
  private async build(key: string, slugDate: string, type: SnapshotType, set: AnchorSet | undefined, version: number) {
    const j = set && set.valid > 0 ? set.valid - 1 : undefined;
    const anchors = j === undefined ? [] : set!.anchors.slice(0, j);
    let from = j === undefined ? undefined : set!.anchors[j];
    for (;;) {
      const stretch = await repo.pageAnchors(this.db, slugDate, type, this.every, from, this.stretch);
      anchors.push(...stretch.slice(0, this.stretch));
      if (stretch.length <= this.stretch) break;
      from = stretch[this.stretch];
    }
    // Changes after the version the walk started from are folded by the next refresh.
    this.store(key, { version: set ? set.version : version, anchors, valid: anchors.length });
  }

  private track(key: string, job: Promise<void>): void {
    this.building.set(
      key,
      job.catch(this.onError).finally(() => this.building.delete(key)),
    );
  }

  private store(key: string, set: AnchorSet): void {
    this.sets.delete(key);
    this.sets.set(key, set);
    if (this.sets.size > this.keep) this.sets.delete(this.sets.keys().next().value!);
  }
}

const keyOf = (slugDate: string, type: SnapshotType) => `${slugDate}\u0000${type}`;
