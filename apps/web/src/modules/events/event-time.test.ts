import { describe, expect, it } from 'vitest';
import { MSG } from '@stadiumcam/contract';
import {
  TIME_STEPS,
  endTimeError,
  gameDateStr,
  isFutureEvent,
  isNextDay,
  parsePromoStart,
  timeRange,
  todayIn,
  zonedInstant,
} from './event-time.ts';

const TZ = 'America/Winnipeg';
const event = (start: string, end: string) => ({
  template: false,
  timezone: TZ,
  gameDate: '2025-07-04',
  startTime: zonedInstant('2025-07-04', start, TZ),
  endTime: zonedInstant(end < start ? '2025-07-05' : '2025-07-04', end, TZ),
});

describe('event times', () => {
  it('offers the day in 15-minute steps', () => {
    expect(TIME_STEPS).toHaveLength(96);
    expect(TIME_STEPS.slice(0, 3)).toEqual(['00:00', '00:15', '00:30']);
    expect(TIME_STEPS.at(-1)).toBe('23:45');
  });

  it("reads wall-clock times in the event's zone", () => {
    // Winnipeg is UTC-5 in July.
    expect(zonedInstant('2025-07-04', '19:00', TZ)).toBe('2025-07-05T00:00:00.000Z');
    expect(timeRange(event('19:00', '22:30'))).toBe('07:00pm - 10:30pm CDT');
    expect(gameDateStr(event('19:00', '22:30'))).toBe('Fri 04/07/2025');
  });

  it('marks an event that ends the next day', () => {
    expect(isNextDay(event('19:00', '22:30'))).toBe(false);
    expect(isNextDay(event('22:00', '01:00'))).toBe(true);
    expect(timeRange(event('22:00', '01:00'))).toBe('10:00pm - 01:00am (+1) CDT');
  });

  it('applies the length rules of spec 1 §5', () => {
    expect(endTimeError('19:00', '', false)).toBe(MSG.events.endTimeRequired);
    expect(endTimeError('19:00', '18:00', false)).toBe(MSG.events.endAfterStart);
    expect(endTimeError('19:00', '19:00', false)).toBe(MSG.events.endAfterStart);
    expect(endTimeError('19:00', '19:03', false)).toBe(MSG.events.eventTooShort);
    expect(endTimeError('19:00', '19:15', false)).toBeNull();
    expect(endTimeError('22:00', '01:00', true)).toBeNull();
    expect(endTimeError('19:00', '19:00', true)).toBeNull();
    expect(endTimeError('19:00', '19:15', true)).toBe(MSG.events.eventTooLong);
    expect(endTimeError('23:58', '00:01', true)).toBe(MSG.events.eventTooShort);
  });

  it('knows future events by the date in their zone', () => {
    const today = todayIn(TZ);
    expect(isFutureEvent({ ...event('19:00', '22:00'), gameDate: today })).toBe(false);
    expect(isFutureEvent({ ...event('19:00', '22:00'), gameDate: '2999-01-01' })).toBe(true);
    expect(isFutureEvent({ ...event('19:00', '22:00'), template: true, gameDate: null })).toBe(false);
  });

  it('parses a promotion start typed as yyyy-mm-dd hh:mm', () => {
    expect(parsePromoStart('2025-07-04 19:30', TZ)).toBe('2025-07-05T00:30:00.000Z');
    expect(parsePromoStart(' 2025-07-04 19:30 ', TZ)).toBe('2025-07-05T00:30:00.000Z');
    for (const bad of ['', '2025-07-04', '2025-07-04T19:30', '2025-02-30 10:00', '2025-07-04 25:00', 'soon']) {
      expect(parsePromoStart(bad, TZ)).toBeNull();
    }
  });
});

describe('times in the event’s zone', () => {
  it('shows am/pm and the zone label, summer and winter', async () => {
    const { eventClock, eventDateTime, zoneLabel } = await import('./event-time.ts');
    expect(eventDateTime('2025-07-05T00:05:09Z', TZ)).toBe('04/07/2025 07:05:09 pm CDT');
    expect(eventClock('2025-01-10T15:00:00Z', TZ)).toBe('09:00:00 am CST');
    expect(zoneLabel('2025-07-05T00:05:09Z', 'Europe/London')).toBe('GMT+1');
  });

  it('labels every time with the zone: ranges, short clocks, the analytics buckets', async () => {
    const { eventShortClock, timeRange: range, wallZoneLabel } = await import('./event-time.ts');
    // A January event is in standard time; no times, no range.
    const winter = {
      template: false,
      timezone: TZ,
      gameDate: '2025-01-10',
      startTime: zonedInstant('2025-01-10', '19:00', TZ),
      endTime: zonedInstant('2025-01-11', '01:00', TZ),
    };
    expect(range(winter)).toBe('07:00pm - 01:00am (+1) CST');
    expect(range({ ...winter, timezone: 'Europe/London' })).toBe('01:00am - 07:00am GMT');
    expect(range({ ...winter, startTime: null })).toBe('');
    expect(eventShortClock('2025-07-05T00:05:09Z', TZ)).toBe('07:05 pm CDT');
    expect(eventShortClock('2025-01-10T15:00:00Z', TZ)).toBe('09:00 am CST');
    expect(wallZoneLabel('2025-07-04 19:00', TZ)).toBe('CDT');
    expect(wallZoneLabel('2025-01-10 19:00', TZ)).toBe('CST');
  });

  it('says tomorrow only for the next day in the zone, not in UTC', async () => {
    const { isTomorrow } = await import('./event-time.ts');
    // 23:00 in Winnipeg on the 4th is already the 5th in UTC.
    const now = new Date('2025-07-05T04:00:00Z');
    expect(isTomorrow('2025-07-05T06:00:00Z', TZ, now)).toBe(true); // 01:00 on the 5th
    expect(isTomorrow('2025-07-05T04:30:00Z', TZ, now)).toBe(false); // 23:30 on the 4th
    expect(isTomorrow('2025-07-06T06:00:00Z', TZ, now)).toBe(false); // the 6th
  });
});
