import type { SeatMap, SeatMapRegion } from '@stadiumcam/contract';
import { describe, expect, it } from 'vitest';
import { mapRows, mapSeats, mapSections } from './seat-index.ts';

const corner = (row: string, seat: number) => ({ row, seat, pan: 0, tilt: 0 });
const region = (minr: string, maxr: string, mins: number, maxs: number): SeatMapRegion =>
  ({
    minr,
    maxr,
    mins,
    maxs,
    zoomFactor: 1,
    angle: 0,
    topLeft: corner(minr, mins),
    topRight: corner(minr, maxs),
    bottomLeft: corner(maxr, mins),
    bottomRight: corner(maxr, maxs),
  }) as SeatMapRegion;
const mapOf = (sections: string[]): SeatMap => ({
  rows: ['A', 'B', 'C'],
  loadedAt: 'now',
  cameras: [
    {
      camera: 'cam1',
      number: 1,
      refPoint: { pan: 0, tilt: 0, zoom: 1 },
      ptuModel: '',
      operators: [],
      sections: sections.map((name) => ({ name, type: 'section', regions: [region('A', 'B', 1, 3)] })),
    },
  ],
});

describe('the seat map memo (joins and seat pickers)', () => {
  it('answers in natural order from the map it is given, once per map, and a newly loaded map answers anew', () => {
    const first = mapOf(['10', '2', '1']);
    expect(mapSections(first, 'section')).toEqual(['1', '2', '10']);
    expect(mapSections(first, 'section')).toBe(mapSections(first, 'section'));
    expect(mapRows(first, 'section', '2')).toEqual(['A', 'B']);
    expect(mapSeats(first, 'section', '2', 'B')).toEqual(['1', '2', '3']);
    expect(mapSeats(first, 'section', '2', 'C')).toEqual([]);
    const reloaded = mapOf(['7']);
    expect(mapSections(reloaded, 'section')).toEqual(['7']);
    expect(mapSections(first, 'section')).toEqual(['1', '2', '10']);
  });

  it('keeps no answer for a made-up seat type or section (a crowd of bad requests cannot grow it)', () => {
    const map = mapOf(['1']);
    const unknown = mapSections(map, 'nosuchtype');
    expect(unknown).toEqual([]);
    expect(mapSections(map, 'nosuchtype')).not.toBe(unknown);
    expect(mapRows(map, 'section', 'x')).toEqual([]);
  });
});
