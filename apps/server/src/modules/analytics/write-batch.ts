import type { Db } from '../../db/client.ts';
import { addPageViews, addQueueJoins, type PageViewCount, type QueueJoinRow } from './analytics.repository.ts';

/** How often batched rows reach the database. */
const FLUSH_MS = 1_000;
/** Distinct rows held before a flush is forced (screen sizes and countries vary). */
const MAX_PENDING = 5_000;

/**
 * Rows kept in memory and written together once a second: what every phone causes many times a
 * second and nobody reads at once. One insert each was the largest share of the embedded
 * database's work on the event loop (page views at 10 photos a second, docs/bench-realtime.md;
 * queue joins and their seat roll-up at a half-time burst of 200 joins a second,
 * docs/bench-fans.md). A crash loses at most the last second; a read on this instance flushes
 * first, another instance sees the rows a second later.
 */
class WriteBatch<T> {
  protected pending = new Map<string, T>();
  private flushing: Promise<void> = Promise.resolve();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly write: (rows: T[]) => Promise<void>,
    /** Folds a row into one pending under the same id (a count grows); none: ids are unique. */
    private readonly merge: (into: T, row: T) => void,
    private readonly onError: (err: unknown) => void,
  ) {
    this.timer = setInterval(() => void this.flush(), FLUSH_MS).unref();
  }

  protected put(id: string, row: T): void {
    const held = this.pending.get(id);
    if (held) this.merge(held, row);
    else this.pending.set(id, row);
    if (this.pending.size >= MAX_PENDING) void this.flush();
  }

  /** Writes what is held; one write at a time, and a failed write keeps its rows for the next. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      if (!this.pending.size) return;
      const rows = this.pending;
      this.pending = new Map();
      try {
        await this.write([...rows.values()]);
      } catch (err) {
        await this.oneByOne(rows, err);
      }
    });
    return this.flushing;
  }

  /**
   * After a failed batch: row by row, so a row that can never be written (its event deleted
   * meanwhile) is dropped instead of failing every later batch. When the first row fails too
   * (the database away), every row waits for the next flush.
   */
  private async oneByOne(rows: Map<string, T>, err: unknown): Promise<void> {
    let dropped = 0;
    let first = true;
    for (const row of rows.values()) {
      try {
        await this.write([row]);
      } catch {
        if (first) {
          for (const [i, r] of rows) this.put(i, r);
          this.onError(err);
          return;
        }
        dropped++;
      }
      first = false;
    }
    if (dropped) this.onError(new Error(`${dropped} rows dropped after: ${(err as Error).message}`));
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}

/** Page views, counted per event, day, dimension and key. */
export class PageViewCounter extends WriteBatch<PageViewCount> {
  constructor(db: Db, onError: (err: unknown) => void) {
    super(
      (rows) => addPageViews(db, rows),
      (into, row) => (into.n += row.n),
      onError,
    );
  }

  add(slugDate: string, values: [dimension: string, key: string][]): void {
    const day = new Date().toISOString().slice(0, 10);
    for (const [dimension, key] of values)
      this.put(JSON.stringify([slugDate, day, dimension, key]), { slugDate, day, dimension, key, n: 1 });
  }
}

/** Successful queue joins from a seat (the seat roll-up's triggers count them as they are written). */
export class QueueJoinLog extends WriteBatch<QueueJoinRow> {
  private next = 0;

  constructor(db: Db, onError: (err: unknown) => void) {
    super(
      (rows) => addQueueJoins(db, rows),
      () => undefined,
      onError,
    );
  }

  add(slugDate: string, seat: { seatType: string; section: string; row: string; seat: string }): void {
    this.put(String(this.next++), {
      slugDate,
      seatType: seat.seatType,
      section: seat.section,
      row: seat.row,
      seat: seat.seat,
      date: new Date(),
    });
  }
}
