import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from './config.ts';
import type { Db } from './db/client.ts';
import type { Mailer } from './mail/mailer.ts';
import type { Realtime } from './plugins/socket.ts';
import type { AttendeeFeed } from './modules/attendee/index.ts';
import type { SeatMap } from '@stadiumcam/contract';
import type { CameraHub } from './modules/cameras/index.ts';
import type { EventCache } from './modules/events/index.ts';
import type { MetricsState } from './modules/events/index.ts';
import type { PageViewCounter, QueueJoinLog } from './modules/analytics/index.ts';
import type { PageAnchors } from './modules/snapshots/index.ts';
import type { OpsMetrics } from './modules/ops/index.ts';
import type { Cluster } from './cluster.ts';
import type { RawLayer } from './media/images.ts';
import type { MediaStore } from './media/media-store.ts';
import type { ImagePool } from './media/image-pool.ts';
import type { EventConfigWriter } from './modules/template/index.ts';

/**
 * What every module's service receives: built once per app in buildApp. Per-app state (hubs,
 * caches) lives here, never in module-level singletons: tests build several apps in one process.
 */
export type Deps = {
  db: Db;
  dbKind: 'pglite' | 'postgres';
  config: AppConfig;
  mailer: Mailer;
  realtime: Realtime;
  log: FastifyBaseLogger;
  /** Template changes pushed to open attendee apps. */
  attendeeFeed: AttendeeFeed;
  /** The seat map in use (modules/mapping); replaced as a whole by a reload, never edited in place. */
  seatMap: { current: SeatMap };
  /** Live state of every camera and host (modules/cameras). */
  cameras: CameraHub;
  /** The album's page anchors (modules/snapshots). */
  anchors: PageAnchors;
  /** Live metrics' queues, peaks and emit timers (modules/events). */
  metrics: MetricsState;
  /** Event lookups reused for a second on the device and attendee paths (modules/events/events.cache.ts). */
  eventCache: EventCache;
  /** The attendee app's page views, counted here and written once a second (modules/analytics). */
  pageViews: PageViewCounter;
  /** Queue joins for the seat heat map, written once a second. */
  queueJoins: QueueJoinLog;
  /** Overlays and watermarks as raw pixels per photo size, for compositing (modules/attendee). */
  overlayLayers: Map<string, RawLayer>;
  /** Events with an overlay upload under way: one at a time per event (modules/template). */
  overlayUploads: Set<string>;
  /** The suspicious-seat check under way per event and user, run one at a time (modules/notifications). */
  suspiciousChecks: Map<string, Promise<unknown>>;
  /** Prometheus registry and the draining flag (modules/ops). */
  ops: OpsMetrics;
  /** The other instances sharing Redis (a no-op alone): cluster.ts. */
  cluster: Cluster;
  /** The media store served at /media: disk or S3_BUCKET (media/media-store.ts). */
  media: MediaStore;
  /** Camera originals, never served under /media (docs/security.md §5). */
  originals: MediaStore;
  /** Renditions and composites, a few at a time, off the event loop (media/image-pool.ts). */
  images: ImagePool;
  /** The one writer of events' configuration, for the areas that do not import the template area (modules/template). */
  eventConfig: EventConfigWriter;
  /** The pre-live checklist's failing items of an event ('label: reason'), for the events area's audit entry (modules/checklist). */
  preLiveFailures: (slugDate: string) => Promise<string[]>;
};
