import {
  SHARE_SOURCES,
  attendeeRoutes,
  buildPath,
  toQueryString,
  type PublicEvent,
  type PublicSnapshot,
  type Seat,
} from '@stadiumcam/contract';
import { randomSeat } from './bowl.ts';
import type { SimLog } from './host.ts';
import type { Rng } from './rng.ts';

export type CrowdOptions = {
  serverUrl: string;
  /** Attendees arriving per second. */
  rate: number;
  /** Share of attendees that keep joining from other seats (suspicious). */
  suspiciousShare: number;
  /** How long a camera turn lasts, to know when to look for the photo. */
  turnMs: number;
  rng: Rng;
  log: SimLog;
};

type Route = { method: string; path: string };

/**
 * Attendees, through the public attendee API exactly as the phone app would: join a queue
 * by seat, wait for the photo, sometimes pick an overlay and share. A few come back from
 * several seats with the same id (the suspicious-user rule should flag them).
 */
export class Crowd {
  private timer: NodeJS.Timeout | null = null;
  private readonly pending = new Set<NodeJS.Timeout>();
  private event: PublicEvent | null = null;
  private eventFetchedAt = 0;
  private stopped = false;
  /** Requests under way; stop() waits for them so the server can close its connections. */
  private readonly inFlight = new Set<Promise<unknown>>();
  private count = 0;
  readonly stats = { joined: 0, photos: 0, overlays: 0, shares: 0, refused: 0 };

  constructor(private readonly opts: CrowdOptions) {}

  start(): void {
    if (this.opts.rate <= 0) return;
    const tick = () => {
      if (this.stopped) return;
      void this.arrive();
      // Poisson arrivals around the configured rate.
      const gap = -Math.log(1 - this.opts.rng.next()) / this.opts.rate;
      this.timer = setTimeout(tick, Math.min(60_000, gap * 1000));
    };
    this.timer = setTimeout(tick, 500);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    for (const t of this.pending) clearTimeout(t);
    await Promise.all(this.inFlight);
  }

  private later(ms: number, fn: () => Promise<void>): void {
    if (this.stopped) return;
    const t = setTimeout(() => {
      this.pending.delete(t);
      if (!this.stopped) fn().catch((err: Error) => this.opts.log.warn({ error: err.message }, 'attendee step failed'));
    }, ms);
    this.pending.add(t);
  }

  private call<T>(
    route: Route,
    input: { params?: Record<string, string>; query?: Record<string, string>; body?: unknown },
  ): Promise<T> {
    if (this.stopped) return Promise.reject(new Error('The crowd has left'));
    const p = this.request<T>(route, input);
    const tracked = p.catch(() => {}).finally(() => this.inFlight.delete(tracked));
    this.inFlight.add(tracked);
    return p;
  }

  private async request<T>(
    route: Route,
    input: { params?: Record<string, string>; query?: Record<string, string>; body?: unknown },
  ): Promise<T> {
    const url = `${this.opts.serverUrl}${buildPath(route.path, input.params)}${toQueryString(input.query)}`;
    const res = await fetch(url, {
      method: route.method,
      headers: input.body === undefined ? {} : { 'content-type': 'application/json' },
      body: input.body === undefined ? undefined : JSON.stringify(input.body),
    });
    const body = (await res.json().catch(() => ({}))) as T & { error?: string };
    if (!res.ok) throw Object.assign(new Error(body.error ?? `HTTP ${res.status}`), { status: res.status });
    return body;
  }

  private async currentEvent(): Promise<PublicEvent> {
    if (!this.event || Date.now() - this.eventFetchedAt > 30_000) {
      this.event = await this.call<PublicEvent>(attendeeRoutes.event, {});
      this.eventFetchedAt = Date.now();
    }
    return this.event;
  }

  private async arrive(): Promise<void> {
    const rng = this.opts.rng;
    const n = ++this.count;
    const userId = `u-${rng.hex(8)}`;
    const suspicious = rng.chance(this.opts.suspiciousShare);
    try {
      const event = await this.currentEvent();
      await this.join(event, userId, randomSeat(rng.next));
      if (suspicious) {
        // The same phone claims other seats, one after another.
        for (let i = 1; i <= 3; i++) {
          this.later(i * (this.opts.turnMs + 1000), () => this.join(event, userId, randomSeat(rng.next)));
        }
      }
    } catch (err) {
      this.stats.refused++;
      if (n % 20 === 1) this.opts.log.warn({ error: (err as Error).message }, 'attendee could not join');
    }
  }

  private async join(event: PublicEvent, userId: string, seat: Seat): Promise<void> {
    const { position } = await this.call<{ camera: string; position: number }>(attendeeRoutes.joinQueue, {
      body: { slugDate: event.slugDate, userId, seat },
    });
    this.stats.joined++;
    this.lookForPhoto(event, userId, position * this.opts.turnMs + 1500, 6);
  }

  private lookForPhoto(event: PublicEvent, userId: string, afterMs: number, tries: number): void {
    this.later(afterMs, async () => {
      const photos = await this.call<PublicSnapshot[]>(attendeeRoutes.snapshots, {
        query: { slugDate: event.slugDate, userId },
      });
      const photo = photos.find((p) => !p.overlay && !p.magicshot);
      if (!photo) {
        if (tries > 1) this.lookForPhoto(event, userId, Math.max(2000, this.opts.turnMs), tries - 1);
        return;
      }
      this.stats.photos++;
      await this.enjoy(event, userId, photo);
    });
  }

  private async enjoy(event: PublicEvent, userId: string, photo: PublicSnapshot): Promise<void> {
    const rng = this.opts.rng;
    if (event.overlays.length && rng.chance(0.6)) {
      await this.call(attendeeRoutes.chooseOverlay, {
        params: { id: photo._id },
        body: { userId, overlay: rng.pick(event.overlays).storageKey },
      });
      this.stats.overlays++;
    }
    if (rng.chance(0.45)) {
      const socialSource = rng.pick(SHARE_SOURCES);
      await this.call(attendeeRoutes.share, {
        params: { id: photo._id },
        body: { userId, socialSource, ...(socialSource === 'Email' ? { userEmail: `${userId}@example.com` } : {}) },
      });
      this.stats.shares++;
    }
  }
}
