/** Uploads that never wait: a quiet server takes these at once, whatever its recent rate. */
const FREE_IN_FLIGHT = 8;
/** The recent completions the rate is read from. */
const WINDOW_MS = 5_000;

/**
 * The photo uploads this instance is working on, and how fast it finishes them: a new one would
 * wait about `inFlight / rate`. The image pool's estimate says when its workers are the ceiling;
 * this one says when the event loop is (a server too busy to read, store and record photos as
 * fast as they come, which piles them up in the loop where the pool never sees them: a CI-sized
 * box once held 30 s of photos that way). The ingest sheds on the larger of the two.
 */
export class UploadGate {
  /** When each upload in flight started (ms). */
  private readonly started = new Set<{ at: number }>();
  /** When the recent uploads ended (ms), oldest first. */
  private readonly ended: number[] = [];

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** One upload starts; call the answer when it ends (stored or refused). */
  enter(): () => void {
    const mine = { at: this.now() };
    this.started.add(mine);
    return () => {
      if (this.started.delete(mine)) this.ended.push(this.now());
    };
  }

  /** How long an upload that starts now would wait behind the others (ms). */
  waitMs(): number {
    const inFlight = this.started.size;
    if (inFlight < FREE_IN_FLIGHT) return 0;
    const now = this.now();
    while (this.ended.length && this.ended[0] < now - WINDOW_MS) this.ended.shift();
    if (!this.ended.length) {
      // Nothing ended for a whole window: a burst just began (no rate to read yet, take it), or
      // the uploads are stuck (a database away: refuse).
      const oldest = Math.min(...[...this.started].map((s) => s.at));
      return now - oldest < WINDOW_MS ? 0 : Infinity;
    }
    return (inFlight / (this.ended.length / WINDOW_MS)) | 0;
  }
}
