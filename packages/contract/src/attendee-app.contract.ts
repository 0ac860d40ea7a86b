import { z } from 'zod';
import { defineRoute } from './route.ts';
import { MSG } from './messages.ts';
import { SHARE_SOURCES } from './constants.ts';
import { SnapshotSchema } from './snapshots.contract.ts';
import { PublicTemplateSchema } from './template.contract.ts';
import { SeatSchema } from './devices.contract.ts';

/*
 * The attendee path under /api/public: the event, the queue, the fan's photos and shares
 * (attendeeRoutes), and the attendee app's own calls (attendeeAppRoutes). docs/protocol.md §3,
 * docs/attendee-app.md. A seat is the camera-host protocol's SeatSchema (devices.contract.ts).
 */

const UserId = z.string().trim().min(1).max(200);

/** `sections`: the seat sections that may use it ('*' = all); the app offers it by the photo's section. */
export const PublicOverlaySchema = z.object({
  storageKey: z.string(),
  urlFullSize: z.string(),
  sections: z.array(z.string()),
});

/** The current event with the template parts the attendee app shows (template.contract.ts). */
export const PublicEventSchema = z
  .object({
    slugDate: z.string(),
    title: z.string(),
    eventStatus: z.string(),
    overlays: z.array(PublicOverlaySchema),
  })
  .extend(PublicTemplateSchema.shape);
export type PublicEvent = z.infer<typeof PublicEventSchema>;

/** What an attendee sees of their own photo. */
export const PublicSnapshotSchema = SnapshotSchema.pick({
  _id: true,
  slugDate: true,
  camera: true,
  section: true,
  row: true,
  seat: true,
  date: true,
  thumbURI: true,
  smallURI: true,
  rawCroppedURI: true,
  sharedURI: true,
  overlay: true,
  magicshot: true,
});
export type PublicSnapshot = z.infer<typeof PublicSnapshotSchema>;

export const attendeeRoutes = {
  /** The current event (DESIGN §6 rule) with its enabled overlays. */
  event: defineRoute({
    method: 'GET',
    path: '/api/public/event',
    public: true,
    query: z.object({ slugDate: z.string().trim().min(1).max(200).optional() }),
    response: PublicEventSchema,
  }),
  /** Join a camera queue; the server picks the camera. */
  joinQueue: defineRoute({
    method: 'POST',
    path: '/api/public/queue',
    public: true,
    body: z.strictObject({
      slugDate: z.string().trim().min(1).max(200),
      userId: UserId,
      seat: SeatSchema,
      /** The browser's position; required while the event's geofence is on (spec 2, DESIGN §10). */
      location: z
        .object({ latitude: z.number().min(-90).max(90), longitude: z.number().min(-180).max(180) })
        .optional(),
    }),
    response: z.object({ camera: z.string(), position: z.number().int() }),
  }),
  /** The attendee's own photos of an event, newest first. */
  snapshots: defineRoute({
    method: 'GET',
    path: '/api/public/snapshots',
    public: true,
    query: z.object({ slugDate: z.string().trim().min(1).max(200), userId: UserId }),
    response: z.array(PublicSnapshotSchema),
  }),
  /** Choose the overlay (null = none); sharedURI becomes the photo with it composited. */
  chooseOverlay: defineRoute({
    method: 'POST',
    path: '/api/public/snapshots/:id/overlay',
    public: true,
    params: z.object({ id: z.string().max(100) }),
    body: z.strictObject({ userId: UserId, overlay: z.string().max(200).nullable() }),
    response: PublicSnapshotSchema,
  }),
  share: defineRoute({
    method: 'POST',
    path: '/api/public/snapshots/:id/share',
    public: true,
    params: z.object({ id: z.string().max(100) }),
    body: z.strictObject({
      userId: UserId,
      socialSource: z.enum(SHARE_SOURCES),
      userEmail: z.email().max(320).optional(),
    }),
    response: PublicSnapshotSchema,
  }),
};

export const ATTENDEE_APP_MSG = MSG.attendeeApp;

/**
 * The fan's turn as the queue screen shows it (docs/attendee-app.md, Queue states), from what the
 * camera host reports (docs/protocol.md §1): `none` in no queue; `waiting` others ahead; `next`
 * only the fan being photographed is ahead; `live` the fan's own turn (first in the host's queue).
 */
export const QUEUE_STATES = ['none', 'waiting', 'next', 'live'] as const;
export type QueueState = (typeof QUEUE_STATES)[number];

export const QueuePositionSchema = z.object({
  camera: z.string().nullable(),
  /** 1 = the fan's turn now, 2 = next, 0 = in no queue. */
  position: z.number().int(),
  state: z.enum(QUEUE_STATES),
  /**
   * The camera as a fan reads it: the number of an id such as `cam3` ('3'), else the id the venue
   * gave it ('North stand'); null in no queue.
   */
  cameraLabel: z.string().nullable(),
  /** `live`: seconds left of the fan's turn as the host last reported it (the monitor's countdown); else 0. */
  liveTime: z.number().min(0),
});
export type QueuePosition = z.infer<typeof QueuePositionSchema>;

/** A server-issued fan id (docs/security.md §18): `fan-` and 32 hex digits. */
export const FAN_ID_PATTERN = /^fan-[0-9a-f]{32}$/;

/**
 * A fan id short enough for a camera tile's chips: `fan-…` and its last 6 digits (1 in 16 million
 * alike; the whole id is in the chip's title); any other id as it is.
 */
export function shortUserId(id: string): string {
  return FAN_ID_PATTERN.test(id) ? `fan-…${id.slice(-6)}` : id;
}

/** A fan id and its signed token (docs/security.md §18): the app keeps the token and sends it as `X-Fan-Token`. */
export const FanIdSchema = z.object({ userId: z.string(), fanToken: z.string() });
export type FanId = z.infer<typeof FanIdSchema>;

export const attendeeAppRoutes = {
  /**
   * A new fan id, signed by the server. Every queue join, queue position and live stream needs
   * one; the other calls count against it when they carry it (per-fan rate limits).
   */
  fan: defineRoute({
    method: 'POST',
    path: '/api/public/fan',
    public: true,
    response: FanIdSchema,
  }),
  /**
   * Server-sent events: `event: template` with the event's PublicTemplate after every save of a
   * configuration part; a comment line every 25 s keeps proxies from closing it. `fan` is the
   * fan token (an EventSource cannot send headers).
   */
  stream: defineRoute({
    method: 'GET',
    path: '/api/public/event/stream',
    public: true,
    query: z.object({ slugDate: z.string().min(1).max(200), fan: z.string().max(100).optional() }),
    response: null,
  }),
  /** Checks a queued fan's trivia answer on the server: the phone is never sent the right answer. */
  triviaAnswer: defineRoute({
    method: 'POST',
    path: '/api/public/trivia/:slugDate/:language/answer',
    public: true,
    params: z.object({ slugDate: z.string().trim().min(1).max(200), language: z.string().trim().min(1).max(40) }),
    body: z.strictObject({ questionId: z.string().min(1).max(500), answer: z.union([z.literal(1), z.literal(2)]) }),
    response: z.object({ correct: z.boolean() }),
  }),
  /** Where the fan is in the camera queues now (camera null: in no queue). */
  queuePosition: defineRoute({
    method: 'GET',
    path: '/api/public/queue/position',
    public: true,
    query: z.object({ userId: UserId }),
    response: QueuePositionSchema,
  }),
  /**
   * The seat form's choices from the venue's seat map (DESIGN §11): sections of a seat type, rows
   * of a section (row dictionary order) or seats of a row, as the fan fills the form in. Empty
   * when the venue has no seat map yet; the queue join still decides.
   */
  seats: defineRoute({
    method: 'GET',
    path: '/api/public/seats',
    public: true,
    query: z.object({
      seatType: z.string().trim().min(1).max(40),
      section: z.string().trim().min(1).max(40).optional(),
      row: z.string().trim().min(1).max(40).optional(),
    }),
    response: z.object({ options: z.array(z.string()) }),
  }),
  /** The photo e-mail to the fan (the event's e-mail colours and header); recorded as an Email share. */
  email: defineRoute({
    method: 'POST',
    path: '/api/public/snapshots/:id/email',
    public: true,
    params: z.object({ id: z.string().max(100) }),
    body: z.strictObject({
      userId: UserId,
      userEmail: z.email().max(320),
      /** The app's language: the e-mail's texts follow it. */
      language: z.string().max(40).optional(),
    }),
    response: z.object({ ok: z.literal(true) }),
  }),
};
