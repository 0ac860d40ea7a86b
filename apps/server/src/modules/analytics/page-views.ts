import type { Db } from '../../db/client.ts';
import { addPageViews, type PageViewCount } from './analytics.repository.ts';

/** How often counted page views reach the database. */
const FLUSH_MS = 1_000;
/** Distinct rows held before a flush is forced (screen sizes and countries vary). */
const MAX_PENDING = 5_000;

/**
 * Page views counted in memory and written as one upsert a second. Every screen of every
 * attendee app reports a view (about 45 a second at 10 photos a second), and one insert each
 * was the largest share of the embedded database's work on the event loop
 * (docs/bench-realtime.md). A crash loses at most the last second of counts; a read on this
 * instance flushes first, another instance sees them a second later.
 */
export class PageViewCounter {
  private pending = new Map<string, PageViewCount>();
  private flushing: Promise<void> = Promise.resolve();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly db: Db,
    private readonly onError: (err: unknown) => void,
  ) {
    this.timer = setInterval(() => void this.flush(), FLUSH_MS).unref();
  }

  add(slugDate: string, values: [dimension: string, key: string][]): void {
    const day = new Date().toISOString().slice(0, 10);
    for (const [dimension, key] of values) {
      const id = JSON.stringify([slugDate, day, dimension, key]);
      const row = this.pending.get(id);
      if (row) row.n++;
      else this.pending.set(id, { slugDate, day, dimension, key, n: 1 });
    }
    if (this.pending.size >= MAX_PENDING) void this.flush();
  }

  /** Writes what is counted; one write at a time, and a failed write keeps its counts for the next. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      if (!this.pending.size) return;
      const rows = this.pending;
      this.pending = new Map();
      try {
        await addPageViews(this.db, [...rows.values()]);
      } catch (err) {
        for (const [id, row] of rows) {
          const later = this.pending.get(id);
          if (later) later.n += row.n;
          else this.pending.set(id, row);
        }
        this.onError(err);
      }
    });
    return this.flushing;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
