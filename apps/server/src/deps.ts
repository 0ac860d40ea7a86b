import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from './config.ts';
import type { Db } from './db/client.ts';
import type { Mailer } from './mail/mailer.ts';
import type { Realtime } from './plugins/socket.ts';
import type { AttendeeFeed } from './modules/attendee/attendee.feed.ts';
import type { SeatMap } from '@stadiumcam/contract';
import type { CameraHub } from './modules/cameras/cameras.service.ts';
import type { EventCache } from './modules/devices/events-link.ts';
import type { MetricsState } from './modules/events/metrics.service.ts';
import type { PageViewCounter } from './modules/analytics/page-views.ts';
import type { PageAnchors } from './modules/snapshots/snapshots.anchors.ts';
import type { OpsMetrics } from './modules/ops/ops.metrics.ts';
import type { Cluster } from './cluster.ts';
import type { RawLayer } from './media/images.ts';
import type { MediaStore } from './media/media-store.ts';

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
  /** Event lookups reused for a second on the device and attendee paths (modules/devices/events-link). */
  eventCache: EventCache;
  /** The attendee app's page views, counted here and written once a second (modules/analytics). */
  pageViews: PageViewCounter;
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
};
