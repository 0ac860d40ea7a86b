import {
  AGE_RANGE,
  GROUP_SIZE_RANGE,
  MINUTES_PER_DAY,
  type EMOTIONS,
  type GENDER_FILTERS,
  type SEAT_TYPES,
  type SnapshotStatsQuery,
} from '@stadiumcam/contract';

export type Emotion = (typeof EMOTIONS)[number];
export type Gender = (typeof GENDER_FILTERS)[number];
export type SeatType = (typeof SEAT_TYPES)[number];

/** The album's filter side bar (spec 1 §3 Album filter fields). */
export type AlbumFilter = {
  seatType: SeatType[];
  section: string[];
  box: string[];
  suite: string[];
  row: string[];
  seat: string[];
  camera: string[];
  overlay: string[];
  userId: string[];
  age: [number, number];
  groupSize: [number, number];
  gender: Gender;
  emotion: Emotion[];
  /** Minutes of the UTC day. */
  time: [number, number];
};

export const EMPTY_FILTER: AlbumFilter = {
  seatType: [],
  section: [],
  box: [],
  suite: [],
  row: [],
  seat: [],
  camera: [],
  overlay: [],
  userId: [],
  age: [AGE_RANGE.min, AGE_RANGE.max],
  groupSize: [GROUP_SIZE_RANGE.min, GROUP_SIZE_RANGE.max],
  gender: 'All',
  emotion: [],
  time: [0, MINUTES_PER_DAY],
};

const LIST_KEYS = [
  'seatType',
  'section',
  'box',
  'suite',
  'row',
  'seat',
  'camera',
  'overlay',
  'userId',
  'emotion',
] as const;

/** Only the fields that narrow anything travel; defaults mean "no filter". */
export function filterToQuery(f: AlbumFilter): Omit<SnapshotStatsQuery, 'slugDate'> {
  const q: Record<string, unknown> = {};
  for (const key of LIST_KEYS) if (f[key].length) q[key] = f[key];
  if (f.age[0] !== AGE_RANGE.min) q.ageMin = f.age[0];
  if (f.age[1] !== AGE_RANGE.max) q.ageMax = f.age[1];
  if (f.groupSize[0] !== GROUP_SIZE_RANGE.min) q.groupSizeMin = f.groupSize[0];
  if (f.groupSize[1] !== GROUP_SIZE_RANGE.max) q.groupSizeMax = f.groupSize[1];
  if (f.gender !== 'All') q.gender = f.gender;
  if (f.time[0] !== 0 || f.time[1] !== MINUTES_PER_DAY) {
    q.timeSince = f.time[0];
    q.timeUntil = f.time[1];
  }
  return q;
}

/** Whether any filter narrows the list; the seat type alone does not (spec 1 §4 Album). */
export function isFilterActive(f: AlbumFilter): boolean {
  const { seatType: _ignored, ...rest } = filterToQuery(f);
  return Object.keys(rest).length > 0;
}

export const minutesLabel = (m: number) =>
  m >= MINUTES_PER_DAY ? '24:00' : `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;

/** "07:30 pm": a minute of the day on the time slider, 12-hour with am/pm (issue 10). */
export const minutesLabel12 = (m: number) => {
  const h = Math.floor(m / 60) % 24;
  const hh = String(h % 12 === 0 ? 12 : h % 12).padStart(2, '0');
  return `${hh}:${String(m % 60).padStart(2, '0')} ${h < 12 || m >= MINUTES_PER_DAY ? 'am' : 'pm'}`;
};

/**
 * The time slider reads minutes of the day in the event's zone (DESIGN §6); the server filters
 * minutes of the UTC day, a range that crosses UTC midnight wrapping (since > until). The whole
 * day stays "no filter".
 */
export function timeToUtc(f: AlbumFilter, utcOffsetMinutes: number): AlbumFilter {
  if (f.time[0] === 0 && f.time[1] === MINUTES_PER_DAY) return f;
  const utc = (m: number) => (((m - utcOffsetMinutes) % MINUTES_PER_DAY) + MINUTES_PER_DAY) % MINUTES_PER_DAY;
  return { ...f, time: [utc(f.time[0]), utc(f.time[1])] };
}
