import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc';
import timezone from 'dayjs/plugin/timezone';
import { DEFAULT_TIMEZONE } from '@stadiumcam/contract';
import { eventDateTime, eventShortClock } from '../events/event-time.ts';

dayjs.extend(utc);
dayjs.extend(timezone);

const zoned = (iso: string, tz: string | undefined) => dayjs(iso).tz(tz || DEFAULT_TIMEZONE);

/**
 * Spec 1 §2: the lightbox shows local time as DD/MM/YYYY hh:mm:ss in the event's zone; with
 * am/pm and the zone's label (issue 10), as every time the console shows.
 */
export const localTime = (iso: string, tz: string | undefined) => eventDateTime(iso, tz || DEFAULT_TIMEZONE);

/** The info card's times (taken, shared): the same DD/MM/YYYY hh:mm:ss am/pm and zone label as the rest. */
export const fullTime = (iso: string, tz: string | undefined) => eventDateTime(iso, tz || DEFAULT_TIMEZONE);

/** The day a photo belongs to in the event's zone: strip labels go where it changes. */
export const localDay = (iso: string, tz: string | undefined) => zoned(iso, tz).format('ddd DD/MM/YYYY');

/** "07:05 pm CDT": the lightbox strip's label of a photo. */
export const shortTime = (iso: string, tz: string | undefined) => eventShortClock(iso, tz || DEFAULT_TIMEZONE);
