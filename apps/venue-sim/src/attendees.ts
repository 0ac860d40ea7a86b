import {
  SHARE_SOURCES,
  analyticsRoutes,
  attendeeAppRoutes,
  attendeeRoutes,
  buildPath,
  toQueryString,
  type FanId,
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
type Input = { params?: Record<string, string>; query?: Record<string, string>; body?: unknown; fan?: Fan };
/** An attendee's server-issued fan id and its token, sent with each of its calls as the app does. */
type Fan = { userId: string; fanToken: string };

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
  /** Refusals by the server's answer (its catalogue text), so a bench can say why fans were turned away. */
  readonly refusedBy = new Map<string, number>();

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

  private call<T>(route: Route, input: Input): Promise<T> {
    if (this.stopped) return Promise.reject(new Error('The crowd has left'));
    const p = this.request<T>(route, input);
    const tracked = p.catch(() => {}).finally(() => this.inFlight.delete(tracked));
    this.inFlight.add(tracked);
    return p;
  }

  private async request<T>(route: Route, input: Input): Promise<T> {
    const url = `${this.opts.serverUrl}${buildPath(route.path, input.params)}${toQueryString(input.query)}`;
    const res = await fetch(url, {
      method: route.method,
      headers: {
        ...(input.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(input.fan ? { 'x-fan-token': input.fan.fanToken } : {}),
      },
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
  private view(event: PublicEvent, fan: Fan, phone: Phone, page: string): void {
    this.call(analyticsRoutes.pageView, { body: { slugDate: event.slugDate, page, ...phone }, fan }).then(
      () => this.stats.pageViews++,
      () => {},
    );
  }

  /**
   * Half-time: `fansPerSection` fans arrive at once in each of these sections (seat type
   * section), each from a seat of its own there, and go on as every attendee does (join, photo,
   * overlay, share). Resolves once every one has joined or been refused.
   */
  async halfTime(sections: string[], fansPerSection: number): Promise<void> {
    const rng = this.opts.rng;
    const seats = sections.flatMap((section) => {
      const taken = new Set<string>();
      return Array.from({ length: fansPerSection }, () => {
        let seat: Seat = { ...randomSeat(rng.next), section };
        for (let i = 0; i < 50 && taken.has(`${seat.row}-${seat.seat}`); i++)
          seat = { ...randomSeat(rng.next), section };
        taken.add(`${seat.row}-${seat.seat}`);
        return seat;
      });
    });
    await Promise.all(seats.map((seat) => this.arrive(seat, false)));
  }

  private async arrive(at?: Seat, mayBeSuspicious = true): Promise<void> {
    const rng = this.opts.rng;
    const n = ++this.count;
    const suspicious = mayBeSuspicious && rng.chance(this.opts.suspiciousShare);
    const phone = this.phone();
    try {
      // The app's first call: a fan id issued by the server (docs/security.md §18).
      const fan = await this.call<FanId>(attendeeAppRoutes.fan, {});
      const event = await this.currentEvent();
      this.view(event, fan, phone, 'welcome');
      this.view(event, fan, phone, 'seat');
      await this.join(event, fan, at ?? randomSeat(rng.next), phone);
      if (suspicious) {
        // The same phone claims other seats, one after another.
        for (let i = 1; i <= 3; i++) {
          this.later(i * (this.opts.turnMs + 1000), () => this.join(event, fan, randomSeat(rng.next), phone));
        }
      }
    } catch (err) {
      this.stats.refused++;
      const why = (err as Error).message;
      this.refusedBy.set(why, (this.refusedBy.get(why) ?? 0) + 1);
      if (n % 20 === 1) this.opts.log.warn({ error: (err as Error).message }, 'attendee could not join');
    }
  }

  private async join(event: PublicEvent, fan: Fan, seat: Seat, phone: Phone): Promise<void> {
    const { position } = await this.call<{ camera: string; position: number }>(attendeeRoutes.joinQueue, {
      body: { slugDate: event.slugDate, userId: fan.userId, seat },
      fan,
    });
    this.stats.joined++;
    this.view(event, fan, phone, 'queue');
    this.lookForPhoto(event, fan, phone, position * this.opts.turnMs + 1500, 6);
  }

  private lookForPhoto(event: PublicEvent, fan: Fan, phone: Phone, afterMs: number, tries: number): void {
    this.later(afterMs, async () => {
      const photos = await this.call<PublicSnapshot[]>(attendeeRoutes.snapshots, {
        query: { slugDate: event.slugDate, userId: fan.userId },
        fan,
      });
      const photo = photos.find((p) => !p.overlay && !p.magicshot);
      if (!photo) {
        if (tries > 1) this.lookForPhoto(event, fan, phone, Math.max(2000, this.opts.turnMs), tries - 1);
        return;
      }
      this.stats.photos++;
      this.view(event, fan, phone, 'photo');
      await this.enjoy(event, fan, photo, phone);
    });
  }

  private async enjoy(event: PublicEvent, fan: Fan, photo: PublicSnapshot, phone: Phone): Promise<void> {
    const rng = this.opts.rng;
    const userId = fan.userId;
    if (event.overlays.length && rng.chance(0.6)) {
      await this.call(attendeeRoutes.chooseOverlay, {
        params: { id: photo._id },
        body: { userId, overlay: rng.pick(event.overlays).storageKey },
        fan,
      });
      this.stats.overlays++;
    }
    if (rng.chance(0.45)) {
      this.view(event, fan, phone, 'share');
      const socialSource = rng.pick(SHARE_SOURCES);
      await this.call(attendeeRoutes.share, {
        params: { id: photo._id },
        body: { userId, socialSource, ...(socialSource === 'Email' ? { userEmail: `${userId}@example.com` } : {}) },
        fan,
      });
      this.stats.shares++;
    }
  }
}
