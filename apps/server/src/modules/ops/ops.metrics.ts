import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * One Prometheus registry per app (tests build several apps in one process), with the figures
 * other areas count into. The gauges that read live state are added by the ops area.
 */
export type OpsMetrics = {
  registry: Registry;
  httpDuration: Histogram<'method' | 'route' | 'status'>;
  photosIngested: Counter;
  /** Uploads answered 503 + Retry-After because the image work was past its ceiling (ingest). */
  photosShed: Counter;
  /** Set by a SIGTERM: /readyz answers 503 so a load balancer stops sending work. */
  draining: boolean;
  /** Event-loop delay, sampled only once /metrics was asked for (stopped when the app closes). */
  loopDelay: IntervalHistogram | null;
};

export function createOpsMetrics(): OpsMetrics {
  const registry = new Registry();
  return {
    registry,
    httpDuration: new Histogram({
      name: 'stadiumcam_http_request_duration_seconds',
      help: 'HTTP request duration by route pattern',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [registry],
    }),
    photosIngested: new Counter({
      name: 'stadiumcam_photos_ingested_total',
      help: 'Photos received from camera hosts and stored',
      registers: [registry],
    }),
    photosShed: new Counter({
      name: 'stadiumcam_photos_shed_total',
      help: 'Photo uploads a host was told to send again later (the image work past its ceiling)',
      registers: [registry],
    }),
    draining: false,
    loopDelay: null,
  };
}

const LOOP_RESOLUTION_MS = 10;

/** A histogram of the event loop's delay, sampled every 10 ms once enabled. */
export function loopMonitor(): IntervalHistogram {
  return monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
}

/**
 * The loop's lag in ms: how late its timer fired. The histogram records the whole interval
 * between two firings (an idle loop reads ~10 ms at p50), so the resolution comes off.
 */
export function loopLag(h: IntervalHistogram): { p50: number; p99: number; max: number } {
  const lag = (ns: number) => Math.max(0, ns / 1e6 - LOOP_RESOLUTION_MS);
  return { p50: lag(h.percentile(50)), p99: lag(h.percentile(99)), max: lag(h.max) };
}

/** Starts sampling the event loop the first time metrics are read. */
export function loopDelayOf(ops: OpsMetrics): IntervalHistogram {
  if (!ops.loopDelay) {
    ops.loopDelay = loopMonitor();
    ops.loopDelay.enable();
  }
  return ops.loopDelay;
}

/** A gauge whose value is read from live state at each scrape. */
export function liveGauge<L extends string>(
  ops: OpsMetrics,
  name: string,
  help: string,
  labelNames: L[],
  read: (set: (labels: Partial<Record<L, string>>, value: number) => void) => void,
): void {
  new Gauge({
    name,
    help,
    labelNames,
    registers: [ops.registry],
    collect() {
      this.reset();
      read((labels, value) => this.set(labels, value));
    },
  });
}
