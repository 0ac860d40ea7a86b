import { describe, expect, it } from 'vitest';
import { EMPTY_FILTER, filterToQuery, minutesLabel12, timeToUtc } from './album-filter.ts';

describe('the album’s time filter, in the event’s zone', () => {
  it('sends minutes of the UTC day; a range across UTC midnight wraps', () => {
    // 18:00–23:00 in Winnipeg in summer (UTC-5) is 23:00–04:00 UTC.
    const evening = timeToUtc({ ...EMPTY_FILTER, time: [18 * 60, 23 * 60] }, -300);
    expect(filterToQuery(evening)).toMatchObject({ timeSince: 23 * 60, timeUntil: 4 * 60 });
    // 10:00–24:00 local = 15:00–05:00 UTC.
    expect(timeToUtc({ ...EMPTY_FILTER, time: [600, 1440] }, -300).time).toEqual([900, 300]);
    // East of Greenwich: 01:00–02:00 in UTC+2 is 23:00–00:00 UTC.
    expect(timeToUtc({ ...EMPTY_FILTER, time: [60, 120] }, 120).time).toEqual([1380, 0]);
  });

  it('the whole day is no filter at all', () => {
    expect(filterToQuery(timeToUtc(EMPTY_FILTER, -300))).toEqual({});
  });

  it('labels the slider 12-hour with am/pm', () => {
    expect([0, 30, 12 * 60, 19 * 60 + 5, 1440].map(minutesLabel12)).toEqual([
      '12:00 am',
      '12:30 am',
      '12:00 pm',
      '07:05 pm',
      '12:00 am',
    ]);
  });
});
