import {
  AGE_GROUPS,
  ANALYTICS_EMOTIONS,
  ANALYTICS_TOP,
  FACE_TRAITS,
  FIGURE_KEYS,
  P,
  PAGE_VIEW_DIMENSIONS,
  WEB_PANELS,
  can,
  type BasicAnalytics,
  type Count,
  type Figures,
  type PageView,
  type PastEventData,
  type VisionAnalytics,
  type WebAnalytics,
  type WebPanel,
} from '@stadiumcam/contract';
import type { Deps } from '../../deps.ts';
import { notFound, unprocessable, ERR } from '../../errors.ts';
import type { AuthUser } from '../../plugins/session.ts';
import { BUCKET_MINUTES } from './analytics-rollup.repository.ts';
import * as repo from './analytics.repository.ts';
import type { CountRow, EventRow } from './analytics.repository.ts';
import { toCsv } from '../../csv.ts';
import { eventBySlugDate } from '../events/index.ts';

/** Above this span of photos, the timelines use hours instead of quarter hours. */
const FINE_SPAN_MS = 12 * 3_600_000;
const BUCKET_MS = BUCKET_MINUTES * 60_000;

const round2 = (x: number) => Math.round(x * 100) / 100;
const percent = (part: number, whole: number) => (whole > 0 ? round2((part * 100) / whole) : 0);

async function eventOf(deps: Deps, slugDate: string): Promise<EventRow> {
  const event = await repo.findEvent(deps.db, slugDate);
  if (!event) throw notFound(ERR.events.eventNotFound);
  return event;
}

const eventRef = (e: EventRow) => ({
  slugDate: e.slugDate,
  title: e.title,
  eventStatus: e.eventStatus,
  timezone: e.timezone,
  gameDate: e.gameDate,
});

/** Wall-clock parts of an instant in a time zone. */
function localParts(at: number, timeZone: string) {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(at);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '00';
  return { day: `${get('year')}-${get('month')}-${get('day')}`, hour: get('hour'), minute: Number(get('minute')) };
}

/**
 * Sums 15-minute UTC buckets into the timeline's buckets in the event's time zone (quarter
 * hours, or hours when the photos span more than 12 hours), from the first to the last bucket
 * with gaps filled with zeros. Every zone's offset is a multiple of 15 minutes, so a local
 * quarter hour is exactly one UTC bucket.
 */
export function bucketize<K extends string>(
  byBucket: Map<number, Partial<Record<K, number>>>,
  keys: readonly K[],
  timeZone: string,
  span: { first: number; last: number } | null,
): { bucketMinutes: number; points: ({ date: string; local: string } & Record<K, number>)[] } {
  if (!span) return { bucketMinutes: BUCKET_MINUTES, points: [] };
  const hourly = span.last - span.first > FINE_SPAN_MS;
  const points = new Map<string, { date: string; local: string } & Record<K, number>>();
  for (let t = span.first; t <= span.last; t += BUCKET_MS) {
    const p = localParts(t, timeZone);
    const minute = hourly ? 0 : p.minute;
    const local = `${p.day} ${p.hour}:${String(minute).padStart(2, '0')}`;
    let point = points.get(local);
    if (!point) {
      const start = t - (p.minute - minute) * 60_000;
      point = { date: new Date(start).toISOString(), local, ...Object.fromEntries(keys.map((k) => [k, 0])) } as {
        date: string;
        local: string;
      } & Record<K, number>;
      points.set(local, point);
    }
    const values = byBucket.get(t);
    if (values) for (const k of keys) (point as Record<K, number>)[k] += values[k] ?? 0;
  }
  return { bucketMinutes: hourly ? 60 : BUCKET_MINUTES, points: [...points.values()] };
}

/** Top 10 by count (ties by label). */
const top = (counts: Map<string, number>): Count[] =>
  [...counts]
    .filter(([, count]) => count > 0)
    .map(([x, count]) => ({ x, count }))
    .sort((a, b) => b.count - a.count || a.x.localeCompare(b.x))
    .slice(0, ANALYTICS_TOP);

const addTo = (m: Map<string, number>, key: string, n: number) => m.set(key, (m.get(key) ?? 0) + n);

/**
 * Engaged users (spec 3 §5): the average group size rounded to 2 decimals times the devices
 * (attendees), floored; likewise with the median. In hundredths, so no float rounding bites.
 */
export function engagedUsers(groupSizes: Map<number, number>, devices: number) {
  let photos = 0;
  let people = 0;
  for (const [size, n] of groupSizes) {
    photos += n;
    people += size * n;
  }
  if (photos === 0) return { average: 0, median: 0, averageGroupSize: 0, medianGroupSize: 0, photosWithFaces: 0 };
  const sorted = [...groupSizes].filter(([, n]) => n > 0).sort((a, b) => a[0] - b[0]);
  const nth = (i: number) => {
    let seen = 0;
    for (const [size, n] of sorted) {
      seen += n;
      if (i < seen) return size;
    }
    return 0;
  };
  const avgHundredths = Math.round((people * 100) / photos);
  const medHundredths =
    photos % 2 === 1 ? nth((photos - 1) / 2) * 100 : ((nth(photos / 2 - 1) + nth(photos / 2)) * 100) / 2;
  return {
    average: Math.floor((avgHundredths * devices) / 100),
    median: Math.floor((medHundredths * devices) / 100),
    averageGroupSize: avgHundredths / 100,
    medianGroupSize: medHundredths / 100,
    photosWithFaces: photos,
  };
}

type Overlay = { storageKey?: unknown; urlFullSize?: unknown; deleted?: unknown };
function overlayUrl(event: EventRow, key: string): string | null {
  const list = Array.isArray(event.config.overlays) ? (event.config.overlays as Overlay[]) : [];
  const found = list.find((o) => o.storageKey === key && !o.deleted);
  return typeof found?.urlFullSize === 'string' ? found.urlFullSize : null;
}

const BASIC_METRICS = ['snapshots', 'sharedPhotos', 'shares', 'source', 'overlay', 'section', 'row', 'groupSize'];

function spanOf(rows: { bucket: Date }[]) {
  if (rows.length === 0) return null;
  const times = rows.map((r) => r.bucket.getTime());
  return { first: Math.min(...times), last: Math.max(...times) };
}

export async function basicAnalytics(deps: Deps, slugDate: string): Promise<BasicAnalytics> {
  const event = await eventOf(deps, slugDate);
  return basicOf(deps, event);
}

async function basicOf(deps: Deps, event: EventRow): Promise<BasicAnalytics> {
  const [rows, users] = await Promise.all([
    repo.countRows(deps.db, event.slugDate, BASIC_METRICS),
    repo.userBuckets(deps.db, event.slugDate),
  ]);
  const totals = new Map<string, Map<string, number>>();
  const byBucket = new Map<number, Partial<Record<'users' | 'snapshots' | 'shares', number>>>();
  const bump = (t: number, k: 'users' | 'snapshots' | 'shares', n: number) => {
    const b = byBucket.get(t) ?? {};
    b[k] = (b[k] ?? 0) + n;
    byBucket.set(t, b);
  };
  for (const r of rows) {
    if (!totals.has(r.metric)) totals.set(r.metric, new Map());
    addTo(totals.get(r.metric)!, r.key, r.n);
    if (r.metric === 'snapshots' || r.metric === 'shares') bump(r.bucket.getTime(), r.metric, r.n);
  }
  for (const u of users) bump(u.bucket.getTime(), 'users', u.users);
  const total = (metric: string) => [...(totals.get(metric)?.values() ?? [])].reduce((a, b) => a + b, 0);
  const metric = (m: string) => totals.get(m) ?? new Map<string, number>();

  const snapshots = total('snapshots');
  const shares = total('shares');
  const sharedPhotos = total('sharedPhotos');
  const userCount = users.reduce((a, u) => a + u.users, 0);
  const sharers = users.reduce((a, u) => a + u.sharers, 0);
  const groupSizes = new Map([...metric('groupSize')].map(([k, n]) => [Number(k), n]));
  const engaged = engagedUsers(groupSizes, userCount);
  const timeline = bucketize(
    byBucket,
    ['users', 'snapshots', 'shares'] as const,
    event.timezone,
    spanOf([...rows.filter((r) => r.metric === 'snapshots'), ...users]),
  );
  return {
    event: eventRef(event),
    hasValues: snapshots > 0,
    users: userCount,
    snapshots,
    shares,
    sharedPhotos,
    sharers,
    shareRate: percent(sharers, userCount),
    photoShareRate: percent(sharedPhotos, snapshots),
    engagedUsersAverage: engaged.average,
    engagedUsersMedian: engaged.median,
    engagedUsers: engaged,
    overlayUsage: [...metric('overlay')]
      .filter(([, n]) => n > 0)
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .map(([key, count]) => ({
        overlay: key === '' ? null : key,
        url: key === '' ? null : overlayUrl(event, key),
        count,
        percentage: percent(count, snapshots),
      })),
    shareInsights: [...metric('source')]
      .filter(([, n]) => n > 0)
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .map(([socialSource, count]) => ({ socialSource, count })),
    timeline: timeline,
    sections: top(metric('section')),
    rows: top(metric('row')),
  };
}

export async function visionAnalytics(deps: Deps, slugDate: string): Promise<VisionAnalytics> {
  const event = await eventOf(deps, slugDate);
  const rows = await repo.countRows(
    deps.db,
    slugDate,
    ['snapshots', 'groupSize', 'faces', 'age', 'gender', 'emotion'],
    true,
  );
  const sum = (f: (r: CountRow) => boolean) => rows.filter(f).reduce((a, r) => a + r.n, 0);
  const counts = (metric: string) => {
    const m = new Map<string, number>();
    for (const r of rows) if (r.metric === metric) addTo(m, r.key, r.n);
    return m;
  };
  const ages = counts('age');
  const byBucket = new Map<number, Partial<Record<(typeof ANALYTICS_EMOTIONS)[number], number>>>();
  for (const r of rows) {
    if (r.metric !== 'emotion') continue;
    const b = byBucket.get(r.bucket.getTime()) ?? {};
    const k = r.key as (typeof ANALYTICS_EMOTIONS)[number];
    b[k] = (b[k] ?? 0) + r.n;
    byBucket.set(r.bucket.getTime(), b);
  }
  const emotionRows = rows.filter((r) => r.metric === 'emotion' && r.n !== 0);
  const emotions = bucketize(byBucket, ANALYTICS_EMOTIONS, event.timezone, spanOf(emotionRows));
  const faces = sum((r) => r.metric === 'faces');
  return {
    hasValues: faces > 0,
    faces,
    photos: sum((r) => r.metric === 'groupSize'),
    ageRange: faces > 0 ? AGE_GROUPS.map((x) => ({ x, count: ages.get(x) ?? 0 })) : [],
    gender: top(counts('gender')),
    emotions: emotions,
    traits: Object.fromEntries(
      FACE_TRAITS.map((t) => {
        const m = counts(`trait:${t}`);
        return [t, { yes: m.get('yes') ?? 0, no: m.get('no') ?? 0 }];
      }),
    ) as VisionAnalytics['traits'],
  };
}

export async function webAnalytics(deps: Deps, slugDate: string): Promise<WebAnalytics> {
  await eventOf(deps, slugDate);
  await deps.pageViews.flush();
  const rows = await repo.pageViewTotals(deps.db, slugDate);
  const sources = new Set<string>(PAGE_VIEW_DIMENSIONS);
  const panels = Object.fromEntries(
    WEB_PANELS.map((panel) => {
      if (!sources.has(panel)) return [panel, null];
      const m = new Map<string, number>();
      for (const r of rows) if (r.dimension === panel) addTo(m, r.key, r.n);
      return [panel, m.size ? top(m) : null];
    }),
  ) as Record<WebPanel, Count[] | null>;
  const pageViews = rows.filter((r) => r.dimension === 'page').reduce((a, r) => a + r.n, 0);
  return { hasValues: pageViews > 0, pageViews, panels };
}

const figuresOf = (b: BasicAnalytics): Figures => Object.fromEntries(FIGURE_KEYS.map((k) => [k, b[k]])) as Figures;

/** (now − past) / past in percent, one decimal; null when the past figure is 0. */
export const change = (now: number, past: number) =>
  past === 0 ? null : Math.round(((now - past) * 1000) / past) / 10;

export async function pastEventData(deps: Deps, slugDate: string): Promise<PastEventData> {
  const event = await eventOf(deps, slugDate);
  const past = event.gameDate ? await repo.previousEventWithData(deps.db, event.gameDate) : null;
  if (!past) return { event: null, figures: null, change: {} };
  const [now, then] = await Promise.all([basicOf(deps, event), basicOf(deps, past)]);
  const figures = figuresOf(then);
  return {
    event: eventRef(past),
    figures,
    change: Object.fromEntries(FIGURE_KEYS.map((k) => [k, change(now[k], figures[k])])),
  };
}

/** Every panel the caller may read, as one CSV (quoted cells, formula prefixes neutralised). */
export async function exportCsv(deps: Deps, user: AuthUser, slugDate: string): Promise<{ name: string; csv: string }> {
  const event = await eventOf(deps, slugDate);
  if (event.eventStatus === 'live') throw unprocessable(ERR.analytics.exportWhileLive);
  const basic = await basicOf(deps, event);
  const rows: (string | number | null)[][] = [['panel', 'label', 'value']];
  for (const k of [...FIGURE_KEYS, 'sharedPhotos', 'sharers'] as const) rows.push(['figures', k, basic[k]]);
  rows.push(['engagedUsers', 'averageGroupSize', basic.engagedUsers.averageGroupSize]);
  rows.push(['engagedUsers', 'medianGroupSize', basic.engagedUsers.medianGroupSize]);
  for (const o of basic.overlayUsage) {
    rows.push(['overlayUsage', o.overlay ?? 'none', o.count]);
    rows.push(['overlayUsage %', o.overlay ?? 'none', o.percentage]);
  }
  for (const s of basic.shareInsights) rows.push(['shareInsights', s.socialSource, s.count]);
  for (const p of basic.timeline.points)
    for (const k of ['users', 'snapshots', 'shares'] as const) rows.push([`timeline ${k}`, p.local, p[k]]);
  for (const c of basic.sections) rows.push(['section', c.x, c.count]);
  for (const c of basic.rows) rows.push(['row', c.x, c.count]);
  if (can(user.permissions, P.ANALYTICS_GA_READ)) {
    const web = await webAnalytics(deps, slugDate);
    for (const [panel, list] of Object.entries(web.panels))
      for (const c of list ?? []) rows.push([`web ${panel}`, c.x, c.count]);
  }
  if (can(user.permissions, P.ANALYTICS_VISION_READ)) {
    const vision = await visionAnalytics(deps, slugDate);
    for (const c of vision.ageRange) rows.push(['vision ageRange', c.x, c.count]);
    for (const c of vision.gender) rows.push(['vision gender', c.x, c.count]);
    for (const [t, v] of Object.entries(vision.traits)) {
      rows.push([`vision ${t}`, 'yes', v.yes]);
      rows.push([`vision ${t}`, 'no', v.no]);
    }
    for (const p of vision.emotions.points)
      for (const e of ANALYTICS_EMOTIONS) rows.push([`vision emotion ${e}`, p.local, p[e]]);
  }
  return { name: `${event.slugDate}-analytics.csv`, csv: toCsv(rows) };
}

/** Counts one cookieless page view (no id, no address stored: counts per day only). */
export async function recordPageView(deps: Deps, view: PageView): Promise<void> {
  if (!(await eventBySlugDate(deps, view.slugDate))) throw notFound(ERR.events.eventNotFound);
  const values: [string, string][] = [
    ['page', view.page],
    ['device', view.device],
    ['language', view.language.split('-')[0].toLowerCase()],
    ['screen', `${view.screen.width}x${view.screen.height}`],
  ];
  if (view.country) values.push(['country', view.country]);
  deps.pageViews.add(view.slugDate, values);
}
