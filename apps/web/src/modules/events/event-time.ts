import dayjs, { type Dayjs } from 'dayjs';
import utc from 'dayjs/plugin/utc';
import timezone from 'dayjs/plugin/timezone';
import {
  DEFAULT_TIMEZONE,
  MSG,
  EVENT_MAX_MINUTES,
  EVENT_MIN_MINUTES,
  EVENT_TIME_STEP_MINUTES,
} from '@stadiumcam/contract/lite';

dayjs.extend(utc);
dayjs.extend(timezone);

export { dayjs, type Dayjs };

/** The fields every display helper needs of an event. */
export type EventTimes = {
  template: boolean;
  timezone: string;
  gameDate: string | null;
  startTime: string | null;
  endTime: string | null;
};

const zone = (e: { timezone?: string | null }) => e.timezone || DEFAULT_TIMEZONE;

/** Spec 1 §3: event dates display as DD/MM/YYYY. */
export const formatDate = (ymd: string) => dayjs(ymd).format('DD/MM/YYYY');

/** "ddd DD/MM/YYYY" of the game date (spec 1 §3 gameDateStr). */
export const gameDateStr = (e: EventTimes) => (e.gameDate ? dayjs(e.gameDate).format('ddd DD/MM/YYYY') : '');

/** An instant shown in the event's zone as hh:mma. */
export const clock = (iso: string | null, tz: string) => (iso ? dayjs(iso).tz(tz).format('hh:mma') : '');

/**
 * The zone's short name at that instant ("CDT", "GMT+1"): every time the console shows in an
 * event's zone carries it, so an operator in another zone never reads it as their own clock.
 */
export function zoneLabel(iso: string, tz: string): string {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone: tz, timeZoneName: 'short' }).formatToParts(new Date(iso));
  return parts.find((p) => p.type === 'timeZoneName')?.value ?? tz;
}

/** "07:05:09 pm CDT": a time of day in the event's zone, 12-hour with am/pm and the zone. */
export const eventClock = (iso: string, tz: string) =>
  `${dayjs(iso).tz(tz).format('hh:mm:ss a')} ${zoneLabel(iso, tz)}`;

/** "02/04/2025 07:05:09 pm CDT": spec 1 §9's DD/MM/YYYY hh:mm:ss, with am/pm and the zone. */
export const eventDateTime = (iso: string, tz: string) =>
  `${dayjs(iso).tz(tz).format('DD/MM/YYYY hh:mm:ss a')} ${zoneLabel(iso, tz)}`;

/** "07:05 pm CDT": hours and minutes in the event's zone, with am/pm and the zone (lightbox strip). */
export const eventShortClock = (iso: string, tz: string) =>
  `${dayjs(iso).tz(tz).format('hh:mm a')} ${zoneLabel(iso, tz)}`;

/**
 * The zone's label of a wall-clock time "YYYY-MM-DD HH:mm" in a zone ("CDT"): for times the
 * server already gives as the zone's wall clock (the analytics buckets).
 */
export const wallZoneLabel = (local: string, tz: string) => zoneLabel(dayjs.tz(local, tz).toISOString(), tz);

/** True when the instant falls on the day after `now`'s day, both read in the zone. */
export function isTomorrow(iso: string, tz: string, now: Date = new Date()): boolean {
  const next = dayjs(now).tz(tz).add(1, 'day').format('YYYY-MM-DD');
  return dayjs(iso).tz(tz).format('YYYY-MM-DD') === next;
}

/** The event ends on a later calendar day (in its zone) than it starts: shown with a "+1" mark. */
export function isNextDay(e: EventTimes): boolean {
  if (!e.startTime || !e.endTime) return false;
  const tz = zone(e);
  return dayjs(e.endTime).tz(tz).format('YYYY-MM-DD') > dayjs(e.startTime).tz(tz).format('YYYY-MM-DD');
}

/**
 * "07:00pm - 10:30pm CDT" ("(+1)" before the zone when it ends the next day), in the event's
 * zone with its label (issue 10 point 9): calendar cards, the event selector, the header.
 */
export function timeRange(e: EventTimes): string {
  if (!e.startTime || !e.endTime) return '';
  const tz = zone(e);
  return `${clock(e.startTime, tz)} - ${clock(e.endTime, tz)}${isNextDay(e) ? ' (+1)' : ''} ${zoneLabel(e.startTime, tz)}`;
}

/** Today (YYYY-MM-DD) in a zone. */
export const todayIn = (tz: string = DEFAULT_TIMEZONE) => dayjs().tz(tz).format('YYYY-MM-DD');

/** Spec 1 §3 isFutureEvent: the game date is after today in the event's zone. */
export const isFutureEvent = (e: EventTimes) => !e.template && !!e.gameDate && e.gameDate > todayIn(zone(e));

/** The wall-clock time "HH:mm" of an instant in a zone. */
export const wallClock = (iso: string, tz: string) => dayjs(iso).tz(tz).format('HH:mm');

/** The instant of a wall-clock time on a day in a zone (ISO, UTC). */
export const zonedInstant = (ymd: string, hhmm: string, tz: string) => dayjs.tz(`${ymd} ${hhmm}`, tz).toISOString();

/** Every 15-minute step of a day as "HH:mm" (spec 1 §9 time step). */
export const TIME_STEPS: string[] = Array.from({ length: (24 * 60) / EVENT_TIME_STEP_MINUTES }, (_, i) => {
  const m = i * EVENT_TIME_STEP_MINUTES;
  return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
});

/** "19:30" -> "07:30pm", the label of a time option. */
export const stepLabel = (hhmm: string) => dayjs(`2000-01-01T${hhmm}:00`).format('hh:mma');

const minutes = (hhmm: string) => {
  const [h, m] = hhmm.split(':').map(Number);
  return h * 60 + m;
};

/**
 * The rules of spec 1 §5 on the start and end of an event: without Next Day the end follows
 * the start by at least 5 minutes; with Next Day the end is on the following day and the
 * event lasts at most 24 hours (and still at least 5 minutes). Returns the error of the end
 * field, or null.
 */
export function endTimeError(start: string, end: string, nextDay: boolean): string | null {
  if (!end) return MSG.events.endTimeRequired;
  if (!start) return null;
  const length = minutes(end) - minutes(start) + (nextDay ? 24 * 60 : 0);
  if (!nextDay && length <= 0) return MSG.events.endAfterStart;
  if (nextDay && length > EVENT_MAX_MINUTES) return MSG.events.eventTooLong;
  if (length < EVENT_MIN_MINUTES) return MSG.events.eventTooShort;
  return null;
}

/** How a promotion's start is typed and shown (spec 2 §5), in the event's zone. */
export const PROMO_FORMAT = 'YYYY-MM-DD HH:mm';

/** "yyyy-mm-dd hh:mm" in the event's zone -> ISO instant, or null when it is not a real time. */
export function parsePromoStart(value: string, tz: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2})$/.exec(value.trim());
  if (!m) return null;
  const local = dayjs.tz(value.trim(), tz);
  // Rejects 2025-02-30 and 25:00, which dayjs would roll over.
  if (!local.isValid() || local.format(PROMO_FORMAT) !== value.trim()) return null;
  return local.toISOString();
}
