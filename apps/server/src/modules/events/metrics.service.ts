import { type EventMetrics } from '@stadiumcam/contract';
import type { Deps } from '../../deps.ts';
import { notFound, ERR } from '../../errors.ts';
import { findEventBySlugDate, raisePeak, snapshotTotals } from './events.repository.ts';

/** At most one 'monitor metrics' per event per second. */
export const METRICS_EMIT_INTERVAL_MS = 1_000;

type EventMetricsState = {
  /** Users in each camera's queue, as its host last reported it. */
  queues: Map<string, Set<string>>;
  /** Highest current this process has seen (written, or to be written within a second); the stored peak may be higher (earlier runs). */
  peakWritten: number;
  /** What the last peak write sent. */
  peakSent: number;
  /** Set while peak writes wait out their second. */
  peakTimer: NodeJS.Timeout | null;
  lastEmit: number;
  timer: NodeJS.Timeout | null;
};
/** Live metrics' memory of one app (on Deps). */
export type MetricsState = { events: Map<string, EventMetricsState>; closed: boolean };

export const createMetricsState = (): MetricsState => ({ events: new Map(), closed: false });

const stateOf = (deps: Deps): MetricsState => deps.metrics;

function eventStateOf(deps: Deps, slugDate: string): EventMetricsState {
  const s = stateOf(deps);
  let e = s.events.get(slugDate);
  if (!e)
    s.events.set(
      slugDate,
      (e = { queues: new Map(), peakWritten: 0, peakSent: 0, peakTimer: null, lastEmit: 0, timer: null }),
    );
  return e;
}

/** Distinct attendees over all camera queues of the event (one may wait at two cameras). */
function currentOf(e: EventMetricsState | undefined): number {
  if (!e) return 0;
  const all = new Set<string>();
  for (const q of e.queues.values()) for (const u of q) all.add(u);
  return all.size;
}

/**
 * The venue module calls this whenever a camera host reports its queue; an empty list (or a
 * host that went away) clears that camera. Raises the stored peak and emits, throttled.
 */
export function reportQueueUsers(
  deps: Deps,
  slugDate: string,
  cameraKey: string,
  userIds: string[],
  opts: { mirrored?: boolean } = {},
): void {
  if (stateOf(deps).closed) return;
  const e = eventStateOf(deps, slugDate);
  if (userIds.length) e.queues.set(cameraKey, new Set(userIds));
  else e.queues.delete(cameraKey);
  // Another instance's host: that instance stores the peak and tells every console.
  if (opts.mirrored) return;
  const current = currentOf(e);
  if (current > e.peakWritten) {
    e.peakWritten = current;
    savePeak(deps, slugDate, e);
  }
  scheduleEmit(deps, slugDate);
}

/** At most one peak write per event per second. */
const PEAK_WRITE_INTERVAL_MS = 1_000;

/**
 * Leading and trailing, as the emits: the first rise is written at once, a burst's rises (every
 * join of a half-time crowd raises it) end with one more write of the highest. Reads never
 * answer below `peakWritten` meanwhile (getMetrics).
 */
function savePeak(deps: Deps, slugDate: string, e: EventMetricsState): void {
  if (e.peakTimer) return;
  e.peakSent = e.peakWritten;
  raisePeak(deps.db, slugDate, e.peakSent).catch((err: unknown) =>
    deps.log.warn({ err, slugDate }, 'live metrics peak not saved'),
  );
  e.peakTimer = setTimeout(() => {
    e.peakTimer = null;
    if (!stateOf(deps).closed && e.peakWritten > e.peakSent) savePeak(deps, slugDate, e);
  }, PEAK_WRITE_INTERVAL_MS);
  e.peakTimer.unref();
}

/** Called after a new snapshot or a share of the event. */
export function notifyMetricsChanged(deps: Deps, slugDate: string): void {
  if (stateOf(deps).closed) return;
  scheduleEmit(deps, slugDate);
}

export async function getMetrics(deps: Deps, slugDate: string): Promise<EventMetrics> {
  const row = await findEventBySlugDate(deps.db, slugDate);
  if (!row) throw notFound(ERR.events.eventNotFound);
  const e = stateOf(deps).events.get(slugDate);
  const current = currentOf(e);
  const totals = await snapshotTotals(deps.db, slugDate);
  // The peak write may still be on its way: never answer below the peak this process wrote.
  return { slugDate, current, peak: Math.max(row.peak, current, e?.peakWritten ?? 0), ...totals };
}

/** Leading and trailing: the first change emits at once, a burst ends with one more emit. */
function scheduleEmit(deps: Deps, slugDate: string): void {
  const e = eventStateOf(deps, slugDate);
  if (e.timer) return;
  const wait = Math.max(0, e.lastEmit + METRICS_EMIT_INTERVAL_MS - Date.now());
  e.timer = setTimeout(() => {
    e.timer = null;
    e.lastEmit = Date.now();
    if (stateOf(deps).closed) return;
    getMetrics(deps, slugDate)
      .then((m) => deps.realtime.toEvent(slugDate, 'monitor metrics', m))
      .catch((err: unknown) => deps.log.debug({ err, slugDate }, 'live metrics not emitted'));
  }, wait);
  e.timer.unref();
}

/** The event was deleted: its queues and timers go too. */
export function forgetEventMetrics(deps: Deps, slugDate: string): void {
  const e = stateOf(deps).events.get(slugDate);
  if (e?.timer) clearTimeout(e.timer);
  if (e?.peakTimer) clearTimeout(e.peakTimer);
  stateOf(deps).events.delete(slugDate);
}

/** App shutdown: no timer may fire on a closed database. */
export function disposeMetrics(deps: Deps): void {
  const s = stateOf(deps);
  s.closed = true;
  for (const e of s.events.values()) {
    if (e.timer) clearTimeout(e.timer);
    if (e.peakTimer) clearTimeout(e.peakTimer);
  }
  s.events.clear();
}
