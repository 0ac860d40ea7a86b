import {
  SHARE_SOURCES,
  analyticsRoutes,
  attendeeRoutes,
  buildPath,
  toQueryString,
  type PublicEvent,
  type PageView,
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

/** The phone an attendee holds: what the attendee app reports with each page view (DESIGN §12). */
type Phone = Omit<PageView, 'slugDate' | 'page'>;
const DEVICES = ['mobile', 'mobile', 'mobile', 'mobile', 'mobile', 'mobile', 'tablet', 'desktop'] as const;
const LOCALES = ['en-US', 'en-US', 'en-CA', 'en-CA', 'fr-CA', 'es-MX', 'pt-BR', 'de-DE', 'ja'] as const;
const SCREENS = [
  [390, 844],
  [414, 896],
  [360, 800],
  [393, 873],
  [820, 1180],
] as const;

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
  readonly stats = { joined: 0, photos: 0, overlays: 0, shares: 0, refused: 0, pageViews: 0 };

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

  private phone(): Phone {
    const rng = this.opts.rng;
    const language = rng.pick(LOCALES);
    const [width, height] = rng.pick(SCREENS);
    const region = language.split('-')[1];
    return { device: rng.pick(DEVICES), language, screen: { width, height }, ...(region ? { country: region } : {}) };
  }

  /** A cookieless page view, as the attendee app reports each screen it shows; never blocks the visit. */
  private view(event: PublicEvent, phone: Phone, page: string): void {
    this.call(analyticsRoutes.pageView, { body: { slugDate: event.slugDate, page, ...phone } }).then(
      () => this.stats.pageViews++,
      () => {},
    );
  }

  private async arrive(): Promise<void> {
    const rng = this.opts.rng;
    const n = ++this.count;
    const userId = `u-${rng.hex(8)}`;
    const suspicious = rng.chance(this.opts.suspiciousShare);
    const phone = this.phone();
    try {
      const event = await this.currentEvent();
      this.view(event, phone, 'welcome');
      this.view(event, phone, 'seat');
      await this.join(event, userId, randomSeat(rng.next), phone);
      if (suspicious) {
        // The same phone claims other seats, one after another.
        for (let i = 1; i <= 3; i++) {
          this.later(i * (this.opts.turnMs + 1000), () => this.join(event, userId, randomSeat(rng.next), phone));
        }
      }
    } catch (err) {
      this.stats.refused++;
      if (n % 20 === 1) this.opts.log.warn({ error: (err as Error).message }, 'attendee could not join');
    }
  }

  private async join(event: PublicEvent, userId: string, seat: Seat, phone: Phone): Promise<void> {
    const { position } = await this.call<{ camera: string; position: number }>(attendeeRoutes.joinQueue, {
      body: { slugDate: event.slugDate, userId, seat },
    });
    this.stats.joined++;
    this.view(event, phone, 'queue');
    this.lookForPhoto(event, userId, phone, position * this.opts.turnMs + 1500, 6);
  }

  private lookForPhoto(event: PublicEvent, userId: string, phone: Phone, afterMs: number, tries: number): void {
    this.later(afterMs, async () => {
      const photos = await this.call<PublicSnapshot[]>(attendeeRoutes.snapshots, {
        query: { slugDate: event.slugDate, userId },
      });
      const photo = photos.find((p) => !p.overlay && !p.magicshot);
      if (!photo) {
        if (tries > 1) this.lookForPhoto(event, userId, phone, Math.max(2000, this.opts.turnMs), tries - 1);
        return;
      }
      this.stats.photos++;
      this.view(event, phone, 'photo');
      await this.enjoy(event, userId, photo, phone);
    });
  }

  private async enjoy(event: PublicEvent, userId: string, photo: PublicSnapshot, phone: Phone): Promise<void> {
    const rng = this.opts.rng;
    if (event.overlays.length && rng.chance(0.6)) {
      await this.call(attendeeRoutes.chooseOverlay, {
        params: { id: photo._id },
        body: { userId, overlay: rng.pick(event.overlays).storageKey },
      });
      this.stats.overlays++;
    }
    if (rng.chance(0.45)) {
      this.view(event, phone, 'share');
      const socialSource = rng.pick(SHARE_SOURCES);
      await this.call(attendeeRoutes.share, {
        params: { id: photo._id },
        body: { userId, socialSource, ...(socialSource === 'Email' ? { userEmail: `${userId}@example.com` } : {}) },
      });
      this.stats.shares++;
    }
  }
}
