import dayjs, { type Dayjs } from 'dayjs';
import utc from 'dayjs/plugin/utc.js';
import timezone from 'dayjs/plugin/timezone.js';

dayjs.extend(utc);
dayjs.extend(timezone);

/** Times are stored in UTC; dates and clock times are read in the event's IANA zone (DESIGN §4). */

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;
const GAME_DATE = /^\d{4}-\d{2}-\d{2}$/;

export function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** An ISO 8601 instant with Z or an offset; anything else (or an impossible date) is null. */
export function parseInstant(text: string): Date | null {
  if (!ISO_INSTANT.test(text)) return null;
  const d = new Date(text);
  if (Number.isNaN(d.getTime())) return null;
  // Date accepts 2025-02-30 by rolling over; the calendar part must survive the round trip.
  const offsetless = dayjs.utc(text.slice(0, 10));
  return offsetless.isValid() && offsetless.format('YYYY-MM-DD') === text.slice(0, 10) ? d : null;
}

export function isGameDate(text: string): boolean {
  return GAME_DATE.test(text) && dayjs.utc(text).isValid() && dayjs.utc(text).format('YYYY-MM-DD') === text;
}

export const inZone = (instant: Date, tz: string): Dayjs => dayjs(instant).tz(tz);

/** The calendar day (YYYY-MM-DD) of an instant in a zone. */
export const localDate = (instant: Date, tz: string): string => inZone(instant, tz).format('YYYY-MM-DD');

export const todayIn = (tz: string, now = new Date()): string => localDate(now, tz);

export const addDays = (gameDate: string, days: number): string =>
  dayjs.utc(gameDate).add(days, 'day').format('YYYY-MM-DD');

/** A wall-clock time on a day in a zone, as an instant. */
export const zonedInstant = (gameDate: string, hhmm: string, tz: string): Date =>
  dayjs.tz(`${gameDate} ${hhmm}`, 'YYYY-MM-DD HH:mm', tz).toDate();

/** True when the instant falls on a 15-minute mark of the zone's wall clock. */
export function onStep(instant: Date, tz: string, stepMinutes: number): boolean {
  const t = inZone(instant, tz);
  return t.second() === 0 && t.millisecond() === 0 && t.minute() % stepMinutes === 0;
}

/**
 * The instant rounded down to the previous step. Every zone's UTC offset is a multiple of
 * 15 minutes, so flooring the epoch floors the wall clock too.
 */
export function floorToStep(instant: Date, stepMinutes: number): Date {
  const step = stepMinutes * 60_000;
  return new Date(Math.floor(instant.getTime() / step) * step);
}
