import { describe, expect, it } from 'vitest';
import { fullTime, localDay, localTime, shortTime } from './snapshot-time.ts';

describe('photo times in the event’s zone (issue 10 point 9)', () => {
  const summer = '2025-07-05T00:05:09Z'; // 07:05:09 pm on the 4th in Winnipeg
  const winter = '2025-01-10T15:00:00Z'; // 09:00:00 am in Winnipeg

  it('the lightbox description and the info card: DD/MM/YYYY hh:mm:ss, am/pm and the zone label', () => {
    expect(localTime(summer, 'America/Winnipeg')).toBe('04/07/2025 07:05:09 pm CDT');
    expect(fullTime(summer, 'America/Winnipeg')).toBe('04/07/2025 07:05:09 pm CDT');
    expect(fullTime(winter, 'America/Winnipeg')).toBe('10/01/2025 09:00:00 am CST');
    // 12-hour: no 24-hour clock anywhere.
    expect(fullTime(summer, 'Europe/London')).toBe('05/07/2025 01:05:09 am GMT+1');
  });

  it('the strip: hours and minutes with am/pm and the zone; its day labels in the zone', () => {
    expect(shortTime(summer, 'America/Winnipeg')).toBe('07:05 pm CDT');
    expect(shortTime(winter, 'America/Winnipeg')).toBe('09:00 am CST');
    expect(localDay(summer, 'America/Winnipeg')).toBe('Fri 04/07/2025');
  });

  it('an event without a zone reads in the default zone', () => {
    expect(shortTime(summer, undefined)).toBe('07:05 pm CDT');
  });
});
