import { describe, expect, it } from 'vitest';
import { buildSeatMap, type CameraMapFile, type SeatMap } from '@stadiumcam/contract';
import { coverageLists, coverageOf } from './coverage-model.ts';

/** A rectangular region from its top-left (higher row) to its bottom-right corner. */
const region = (top: string, bottom: string, first: number, last: number) => ({
  corners: [
    { position: 'top_left' as const, row: top, seat: first, pan: 0, tilt: 10 },
    { position: 'bottom_right' as const, row: bottom, seat: last, pan: 10, tilt: 0 },
  ],
  zoom_factor: 0.8,
  angle: 0,
});
const mapFile = (camera: number, sections: CameraMapFile['sections']): CameraMapFile => ({
  camera,
  ref_point: { pan: 0, tilt: 0, zoom: 0 },
  sections,
});

function seatMap(...maps: CameraMapFile[]): SeatMap {
  const built = buildSeatMap(
    {
      rowDict: 'A\nB\nC\nD\nE\n',
      maps: maps.map((m) => ({ name: `cam${m.camera}.json`, text: JSON.stringify(m) })),
    },
    new Set(maps.map((m) => `cam${m.camera}`)),
    '2026-01-01T00:00:00.000Z',
  );
  if (!built.ok) throw new Error(JSON.stringify(built.errors));
  return built.seatMap;
}

describe('coverage view', () => {
  // cam1: section 101 rows A-C seats 1-10 and box B1 row A seats 1-4; cam2: section 101 rows C-D seats 8-12.
  const map = seatMap(
    mapFile(1, [
      { name: '101', type: 'section', regions: [region('C', 'A', 1, 10)] },
      { name: 'B1', type: 'box', regions: [region('A', 'A', 1, 4)] },
    ]),
    mapFile(2, [{ name: '101', type: 'section', regions: [region('D', 'C', 8, 12)] }]),
  );

  it('draws each section over the span of its regions, top row first, with the cameras of each seat', () => {
    const sections = coverageOf(map);
    expect(sections.map((s) => `${s.type} ${s.name}`)).toEqual(['box B1', 'section 101']);
    const s101 = sections[1];
    expect(s101.rows).toEqual(['D', 'C', 'B', 'A']);
    expect(s101.seats).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    expect(s101.cells).toHaveLength(4 * 12);
    const cams = (row: string, seat: number) => s101.cells.find((c) => c.row === row && c.seat === seat)!.cams;
    expect(cams('A', 1)).toEqual(['cam1']);
    expect(cams('D', 12)).toEqual(['cam2']);
    expect(cams('C', 9)).toEqual(['cam1', 'cam2']);
    expect(cams('D', 1)).toEqual([]);
    expect(cams('A', 11)).toEqual([]);
    expect(sections[0].cells.every((c) => c.cams.join() === 'cam1')).toBe(true);
  });

  it('lists the gaps and the overlaps by section', () => {
    const lists = coverageLists(coverageOf(map));
    // Row D seats 1-7 (no camera reaches them) and rows A-B seats 11-12 (only cam2's rows C-D go that far).
    expect(lists.gapSeats).toBe(7 + 4);
    expect(lists.gaps).toEqual([{ section: 'section 101', seats: 'D-1, D-2, D-3, D-4, D-5, D-6 … (11)', cams: [] }]);
    // Row C seats 8-10: both cameras.
    expect(lists.overlapSeats).toBe(3);
    expect(lists.overlaps).toEqual([{ section: 'section 101', seats: 'C-8, C-9, C-10', cams: ['cam1', 'cam2'] }]);
  });

  it('a map without gaps or overlaps gives empty lists, an empty map no sections', () => {
    const whole = seatMap(
      mapFile(1, [{ name: '101', type: 'section', regions: [region('B', 'A', 1, 5)] }]),
      mapFile(2, [{ name: '101', type: 'section', regions: [region('E', 'C', 1, 5)] }]),
    );
    expect(coverageLists(coverageOf(whole))).toEqual({ gaps: [], overlaps: [], gapSeats: 0, overlapSeats: 0 });
    expect(coverageOf({ rows: [], cameras: [], loadedAt: null })).toEqual([]);
  });
});
