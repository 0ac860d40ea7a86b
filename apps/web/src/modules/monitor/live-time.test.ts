import { describe, expect, it } from 'vitest';
import { liveDeadline, secondsLeft } from './live-time.ts';

/** What the tile shows at each report and after: the host's reports as `[atMs, liveTime]`. */
function shown(reports: [number, number][], at: number): number {
  let deadline: number | undefined;
  for (const [t, live] of reports) if (t <= at) deadline = liveDeadline(deadline, live, t);
  return deadline === undefined ? 0 : secondsLeft(deadline, at);
}

describe('live-time countdown', () => {
  it('counts down for every fan of a queue, turn after turn with the same figure (6 s each)', () => {
    // Three fans on one camera: each turn is reported with liveTime 6, 7 s apart (6 s + the still).
    const reports: [number, number][] = [
      [0, 6],
      [7000, 6],
      [14000, 6],
    ];
    for (const start of [0, 7000, 14000]) {
      expect([0, 1000, 2500, 5000, 6000].map((d) => shown(reports, start + d))).toEqual([6, 5, 4, 1, 0]);
    }
  });

  it('an fps report repeating the figure (rounded up by the host) does not push the count back up', () => {
    // Turn at 0 (6 s); at 1.4 s the host reports ceil(4.6) = 5 with an fps change.
    const reports: [number, number][] = [
      [0, 6],
      [1400, 5],
    ];
    expect(shown(reports, 1400)).toBe(5);
    expect(shown(reports, 2100)).toBe(4);
    expect(shown(reports, 6000)).toBe(0);
  });

  it('never counts up from 0:00: a 0 after the turn, then the next turn from its own figure', () => {
    const reports: [number, number][] = [
      [0, 6],
      [6500, 0],
      [9000, 6],
    ];
    expect(shown(reports, 6500)).toBe(0);
    expect(shown(reports, 8999)).toBe(0);
    expect(shown(reports, 9000)).toBe(6);
    expect(shown(reports, 10000)).toBe(5);
  });

  it('a turn cut short (kick) restarts from the new figure', () => {
    const reports: [number, number][] = [
      [0, 45],
      [2000, 20],
    ];
    expect(shown(reports, 2000)).toBe(20);
  });
});
