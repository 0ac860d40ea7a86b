import { describe, expect, it } from 'vitest';
import {
  aimAt,
  buildSeatMap,
  camerasForSeat,
  cameraStats,
  parseMapFile,
  parseRowDict,
  queueEntries,
  rowsOf,
  sectionsOf,
  seatsOf,
} from './seat-map.ts';
import { cameraMapFileJsonSchema, type CameraMapFile, type SeatMap } from './mapping.contract.ts';

const ROWS = 'A\nB\nC\nD\nE\n';
/** Camera 1: section 101 rows E (top) to A (bottom), seats 1..11. Corners relative to ref (1000, 2000). */
const cam1: CameraMapFile = {
  camera: 1,
  ptu_model: 'X',
  operators: [],
  ref_point: { pan: 1000, tilt: 2000, zoom: 0 },
  sections: [
    {
      name: '101',
      type: 'section',
      regions: [
        {
          corners: [
            { position: 'top_left', row: 'E', seat: 1, pan: -500, tilt: 400 },
            { position: 'top_right', row: 'E', seat: 11, pan: 500, tilt: 420 },
            { position: 'bottom_left', row: 'A', seat: 1, pan: -520, tilt: -400 },
            { position: 'bottom_right', row: 'A', seat: 11, pan: 520, tilt: -380 },
          ],
          zoom_factor: 0.7,
          angle: 2,
        },
      ],
    },
    {
      name: 'B1',
      type: 'box',
      regions: [
        {
          corners: [
            { position: 'top_left', row: 'A', seat: 1, pan: 0, tilt: 0 },
            { position: 'bottom_right', row: 'A', seat: 4, pan: 30, tilt: 0 },
          ],
          zoom_factor: 0.9,
          angle: 0,
        },
      ],
    },
  ],
};
const cam2: CameraMapFile = {
  camera: 2,
  ref_point: { pan: 0, tilt: 0, zoom: 0 },
  sections: [
    {
      name: '101',
      type: 'section',
      regions: [
        {
          corners: [
            { position: 'top_left', row: 'B', seat: 10, pan: 0, tilt: 100 },
            { position: 'bottom_right', row: 'A', seat: 20, pan: 100, tilt: 0 },
          ],
          zoom_factor: 0.5,
          angle: 0,
        },
      ],
    },
  ],
};
const known = new Set(['cam1', 'cam2']);
const files = (...maps: CameraMapFile[]) => ({
  rowDict: ROWS,
  maps: maps.map((m) => ({ name: `cam${m.camera}.json`, text: JSON.stringify(m) })),
});

function build(...maps: CameraMapFile[]): SeatMap {
  const r = buildSeatMap(files(...maps), known, '2026-01-01T00:00:00Z');
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.seatMap;
}

describe('row dictionary', () => {
  it('keeps the order, skips blanks and comments, upper-cases', () => {
    expect(parseRowDict('# rows\na\n\nb\r\nAA\n')).toEqual({ ok: true, value: ['A', 'B', 'AA'] });
  });
  it('refuses duplicates with both line numbers', () => {
    expect(parseRowDict('A\nB\na\n')).toEqual({ ok: false, error: 'Line 3: row "A" is already on line 1' });
  });
  it('refuses an empty dictionary, labels with spaces and binary', () => {
    expect(parseRowDict('\n# none\n').ok).toBe(false);
    expect(parseRowDict('A\nB C\n').ok).toBe(false);
    expect(parseRowDict('A\0B').ok).toBe(false);
  });
});

describe('map files', () => {
  it('parses a good file', () => {
    expect(parseMapFile('cam1.json', JSON.stringify(cam1)).ok).toBe(true);
  });
  it.each([
    ['not JSON', 'cam1.json', '{oops', 'Invalid JSON format'],
    ['no reference point', 'cam1.json', JSON.stringify({ camera: 1, sections: [] }), 'no reference point'],
    [
      'non-numeric corners',
      'cam1.json',
      JSON.stringify({
        ...cam1,
        sections: [
          {
            ...cam1.sections[0],
            regions: [
              {
                ...cam1.sections[0].regions[0],
                corners: [
                  { position: 'top_left', row: 'E', seat: 1, pan: 'left', tilt: 0 },
                  { position: 'bottom_right', row: 'A', seat: 2, pan: 0, tilt: 0 },
                ],
              },
            ],
          },
        ],
      }),
      'pan',
    ],
    [
      'identical regions in a section',
      'cam1.json',
      JSON.stringify({
        ...cam1,
        sections: [{ ...cam1.sections[0], regions: [cam1.sections[0].regions[0], cam1.sections[0].regions[0]] }],
      }),
      'same corners',
    ],
    ['a name that is not cam<N>.json', 'camera.json', JSON.stringify(cam1), 'cam<N>.json'],
    ['a number that differs from the name', 'cam3.json', JSON.stringify(cam1), 'describes camera 1'],
  ])('refuses %s', (_what, name, text, error) => {
    const r = parseMapFile(name, text);
    expect(r.ok).toBe(false);
    expect(r.ok ? '' : r.error).toContain(error);
  });

  it('refuses a camera no host has and rows outside the dictionary (conflicting files)', () => {
    const noHost = buildSeatMap(files({ ...cam2, camera: 7 }), known, 'now');
    expect(noHost.ok).toBe(false);
    const r = buildSeatMap({ rowDict: 'A\nB\nC\n', maps: files(cam1).maps }, known, 'now');
    expect(r).toEqual({
      ok: false,
      errors: [{ name: 'cam1.json', error: 'Section 101: row "E" is not in the row dictionary' }],
    });
  });

  it('has a JSON Schema with the required reference point', () => {
    const schema = cameraMapFileJsonSchema() as { required: string[]; properties: Record<string, unknown> };
    expect(schema.required).toEqual(expect.arrayContaining(['camera', 'ref_point', 'sections']));
    expect(Object.keys(schema.properties)).toContain('section_count');
  });
});

describe('the seat map model', () => {
  const map = build(cam1, cam2);

  it('answers sections, rows (dictionary order) and seats by seat type', () => {
    expect(sectionsOf(map, 'section')).toEqual(['101']);
    expect(sectionsOf(map, 'BOX')).toEqual(['B1']);
    expect(rowsOf(map, 'section', '101')).toEqual(['A', 'B', 'C', 'D', 'E']);
    expect(seatsOf(map, 'box', 'B1', 'A')).toEqual(['1', '2', '3', '4']);
    // Row A: cam1 seats 1..11 and cam2 seats 10..20.
    expect(seatsOf(map, 'section', '101', 'A')).toHaveLength(20);
    expect(seatsOf(map, 'section', '101', 'E')).toHaveLength(11);
    expect(seatsOf(map, 'section', '101', 'Z')).toEqual([]);
  });

  it('lists queue entries by section', () => {
    expect(queueEntries(map)['101']).toEqual([
      { cam: 'cam1', minr: 'A', maxr: 'E', mins: 1, maxs: 11, type: 'section' },
      { cam: 'cam2', minr: 'A', maxr: 'B', mins: 10, maxs: 20, type: 'section' },
    ]);
  });

  it('finds the cameras covering a seat (overlaps give several, gaps none)', () => {
    const cams = (row: string, seat: string) =>
      camerasForSeat(map, { seatType: 'section', section: '101', row, seat }).map((h) => h.camera.camera);
    expect(cams('C', '5')).toEqual(['cam1']);
    expect(cams('A', '10')).toEqual(['cam1', 'cam2']);
    expect(cams('A', '15')).toEqual(['cam2']);
    expect(cams('E', '15')).toEqual([]);
    expect(cams('A', 'x')).toEqual([]);
  });

  it('aims at a corner seat exactly and at a middle seat in between', () => {
    const aim = (row: string, seat: string) => {
      const [hit] = camerasForSeat(map, { seatType: 'section', section: '101', row, seat });
      return aimAt(map, hit, { row, seat });
    };
    expect(aim('E', '1')).toEqual({ pan: 500, tilt: 2400, zoom: 0.7, angle: 2 });
    expect(aim('E', '11')).toEqual({ pan: 1500, tilt: 2420, zoom: 0.7, angle: 2 });
    expect(aim('A', '1')).toEqual({ pan: 480, tilt: 1600, zoom: 0.7, angle: 2 });
    // Row C is half way (E..A), seat 6 half way (1..11): the mean of the four corners.
    expect(aim('C', '6')).toEqual({ pan: 1000, tilt: 2010, zoom: 0.7, angle: 2 });
  });

  it('counts the per-camera figures', () => {
    const [s1, s2] = cameraStats(map);
    expect(s1).toMatchObject({
      camera: 'cam1',
      numberOfSections: 1,
      numberOfBoxes: 1,
      numberOfRegions: 2,
      numberOfSeats: 5 * 11 + 4,
      referencePan: 1000,
      referenceTilt: 2000,
      maxZoom: 0.9,
      minZoom: 0.7,
      avgZoom: 0.8,
      maxAngle: 2,
      minPan: -520,
      maxPan: 520,
    });
    expect(s2).toMatchObject({ camera: 'cam2', numberOfSeats: 2 * 11 });
  });
});
