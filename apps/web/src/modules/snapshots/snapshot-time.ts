import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc';
import timezone from 'dayjs/plugin/timezone';
import { DEFAULT_TIMEZONE } from '@stadiumcam/contract';
import { eventDateTime } from '../events/event-time.ts';

dayjs.extend(utc);
dayjs.extend(timezone);

const zoned = (iso: string, tz: string | undefined) => dayjs(iso).tz(tz || DEFAULT_TIMEZONE);

/**
 * Spec 1 §2: the lightbox shows local time as DD/MM/YYYY hh:mm:ss in the event's zone; with
 * am/pm and the zone's label (issue 10), as every time the console shows.
 */
export const localTime = (iso: string, tz: string | undefined) => eventDateTime(iso, tz || DEFAULT_TIMEZONE);

/** Spec 1 §9 date-time format, 24-hour, for the info panel where am/pm must not be guessed. */
export const fullTime = (iso: string, tz: string | undefined) => zoned(iso, tz).format('YYYY-MM-DD HH:mm:ss');

/** The day a photo belongs to in the event's zone: strip labels go where it changes. */
export const localDay = (iso: string, tz: string | undefined) => zoned(iso, tz).format('ddd DD/MM/YYYY');

export const shortTime = (iso: string, tz: string | undefined) => zoned(iso, tz).format('hh:mm a');
