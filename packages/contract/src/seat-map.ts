import {
  CameraMapFileSchema,
  MAP_FILE_RE,
  ROW_DICT_FILE,
  type Aim,
  type CameraMapFile,
  type CameraMapStats,
  type MapCorner,
  type QueueEntry,
  type RegionType,
  type SeatMap,
  type SeatMapCamera,
  type SeatMapCorner,
  type SeatMapRegion,
} from './mapping.contract.ts';
import { MSG } from './messages.ts';
import { hasForbiddenChars } from './route.ts';

/*
 * The seat map's rules, shared by the server (parsing, queue routing, aiming) and the console
 * (coverage view): one place decides which camera covers a seat and where it points.
 */

export type FileCheck<T> = { ok: true; value: T } | { ok: false; error: string };

const MAX_ROWS = 10_000;

/** `row_dict.txt`: one row label per line, lowest first; blank lines and `#` comments skipped. */
export function parseRowDict(text: string): FileCheck<string[]> {
  if (text.includes('\0')) return { ok: false, error: 'The row dictionary is not a text file' };
  const rows: string[] = [];
  const seen = new Map<string, number>();
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const label = lines[i].trim().toUpperCase();
    if (!label || label.startsWith('#')) continue;
    if (label.length > 20 || /[\s,]/.test(label))
      return { ok: false, error: `Line ${i + 1}: a row label is at most 20 characters, without spaces or commas` };
    const dup = seen.get(label);
    if (dup !== undefined) return { ok: false, error: `Line ${i + 1}: row "${label}" is already on line ${dup}` };
    seen.set(label, i + 1);
    rows.push(label);
    if (rows.length > MAX_ROWS) return { ok: false, error: `More than ${MAX_ROWS} rows` };
  }
  if (!rows.length) return { ok: false, error: 'The row dictionary has no rows' };
  return { ok: true, value: rows };
}

const issueText = (issues: { path: PropertyKey[]; message: string }[]) =>
  issues
    .slice(0, 3)
    .map((i) => `${i.path.map(String).join('.') || 'file'}: ${i.message}`)
    .join('; ');

/** Parses and checks one map file on its own (format, corners, duplicate regions). */
export function parseMapFile(name: string, text: string): FileCheck<CameraMapFile> {
  const m = MAP_FILE_RE.exec(name);
  if (!m) return { ok: false, error: `A map file is named cam<N>.json, not "${name}"` };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, error: 'Invalid JSON format' };
  }
  // A JSON escape (\u0000) is a NUL once parsed; the seat map is stored as jsonb (docs/security.md §10).
  if (hasForbiddenChars(json)) return { ok: false, error: MSG.security.forbiddenChars };
  if (json && typeof json === 'object' && !('ref_point' in json))
    return { ok: false, error: 'The map file has no reference point (ref_point)' };
  const parsed = CameraMapFileSchema.safeParse(json);
  if (!parsed.success) return { ok: false, error: issueText(parsed.error.issues) };
  const file = parsed.data;
  if (file.camera !== Number(m[1])) return { ok: false, error: `${name} describes camera ${file.camera}` };
  for (const section of file.sections) {
    const seen = new Set<string>();
    for (const [i, region] of section.regions.entries()) {
      const positions = region.corners.map((c) => c.position);
      if (new Set(positions).size !== positions.length)
        return { ok: false, error: `Section ${section.name}, region ${i + 1}: a corner is given twice` };
      if (!positions.includes('top_left') || !positions.includes('bottom_right'))
        return { ok: false, error: `Section ${section.name}, region ${i + 1}: top_left and bottom_right are required` };
      const key = JSON.stringify(normaliseCorners(region.corners));
      if (seen.has(key))
        return { ok: false, error: `Section ${section.name}: region ${i + 1} has the same corners as another region` };
      seen.add(key);
    }
  }
  return { ok: true, value: file };
}

type Corners = {
  topLeft: SeatMapCorner;
  topRight: SeatMapCorner;
  bottomLeft: SeatMapCorner;
  bottomRight: SeatMapCorner;
};

/** The four corners; a missing top_right/bottom_left is the rectangle top_left and bottom_right span. */
export function normaliseCorners(corners: MapCorner[]): Corners {
  const at = (p: MapCorner['position']) => corners.find((c) => c.position === p);
  const c = (x: MapCorner): SeatMapCorner => ({ row: x.row.toUpperCase(), seat: x.seat, pan: x.pan, tilt: x.tilt });
  const tl = c(at('top_left')!);
  const br = c(at('bottom_right')!);
  const tr = at('top_right');
  const bl = at('bottom_left');
  return {
    topLeft: tl,
    topRight: tr ? c(tr) : { row: tl.row, seat: br.seat, pan: br.pan, tilt: tl.tilt },
    bottomLeft: bl ? c(bl) : { row: br.row, seat: tl.seat, pan: tl.pan, tilt: br.tilt },
    bottomRight: br,
  };
}

export type SeatMapFiles = { rowDict: string | null; maps: { name: string; text: string }[] };
export type BuildResult = { ok: true; seatMap: SeatMap } | { ok: false; errors: { name: string; error: string }[] };

/**
 * Builds the one model from every file, or says for each file what is wrong with it.
 * `knownCameras` are the camera keys hosts have announced (a map for another camera is refused).
 */
export function buildSeatMap(files: SeatMapFiles, knownCameras: Set<string>, loadedAt: string): BuildResult {
  const errors: { name: string; error: string }[] = [];
  let rows: string[] = [];
  if (files.rowDict !== null) {
    const r = parseRowDict(files.rowDict);
    if (r.ok) rows = r.value;
    else errors.push({ name: ROW_DICT_FILE, error: r.error });
  } else if (files.maps.length) {
    errors.push({ name: ROW_DICT_FILE, error: 'The row dictionary (row_dict.txt) is missing' });
  }
  const rowIndex = new Map(rows.map((r, i) => [r, i]));
  const cameras: SeatMapCamera[] = [];
  for (const { name, text } of files.maps) {
    const parsed = parseMapFile(name, text);
    if (!parsed.ok) {
      errors.push({ name, error: parsed.error });
      continue;
    }
    const file = parsed.value;
    const camera = `cam${file.camera}`;
    if (!knownCameras.has(camera)) {
      errors.push({ name, error: `No camera host has a camera ${camera}` });
      continue;
    }
    const sections: SeatMapCamera['sections'] = [];
    let bad: string | null = null;
    for (const s of file.sections) {
      const regions: SeatMapRegion[] = [];
      for (const [index, region] of s.regions.entries()) {
        const corners = normaliseCorners(region.corners);
        const unknown = Object.values(corners).find((c) => !rowIndex.has(c.row));
        if (unknown && files.rowDict !== null) {
          bad = `Section ${s.name}: row "${unknown.row}" is not in the row dictionary`;
          break;
        }
        const ri = Object.values(corners).map((c) => rowIndex.get(c.row) ?? 0);
        const seats = Object.values(corners).map((c) => c.seat);
        regions.push({
          index,
          regionType: region.region_type ?? 'default',
          ...corners,
          zoomFactor: region.zoom_factor,
          angle: region.angle,
          minr: rows[Math.min(...ri)] ?? corners.topLeft.row,
          maxr: rows[Math.max(...ri)] ?? corners.bottomRight.row,
          mins: Math.min(...seats),
          maxs: Math.max(...seats),
        });
      }
      if (bad) break;
      sections.push({ name: s.name, type: s.type, regions });
    }
    if (bad) {
      errors.push({ name, error: bad });
      continue;
    }
    cameras.push({
      camera,
      number: file.camera,
      refPoint: file.ref_point,
      ptuModel: file.ptu_model ?? '',
      operators: file.operators ?? [],
      sections,
    });
  }
  if (errors.length) return { ok: false, errors };
  cameras.sort((a, b) => a.number - b.number);
  return { ok: true, seatMap: { rows, cameras, loadedAt } };
}

export const EMPTY_SEAT_MAP: SeatMap = { rows: [], cameras: [], loadedAt: null };

/** Seat types in the map, sorted. */
export function seatTypes(map: SeatMap): string[] {
  return [...new Set(map.cameras.flatMap((c) => c.sections.map((s) => s.type)))].sort();
}

/** A section's extent over every camera's regions: its rows (dictionary order, field first) and seats. */
export type SectionSpan = { type: string; name: string; rows: string[]; mins: number; maxs: number };

/**
 * Every section of the map with the rows and seats its regions span (any camera), sorted by seat
 * type then section naturally: what the coverage view and the seat heat map draw.
 */
export function sectionSpans(map: SeatMap): SectionSpan[] {
  const spans = new Map<string, { type: string; name: string; lo: number; hi: number; mins: number; maxs: number }>();
  for (const c of map.cameras)
    for (const s of c.sections)
      for (const r of s.regions) {
        const key = `${s.type}\n${s.name}`;
        const lo = map.rows.indexOf(r.minr);
        const hi = map.rows.indexOf(r.maxr);
        const prev = spans.get(key);
        spans.set(key, {
          type: s.type,
          name: s.name,
          lo: Math.min(prev?.lo ?? lo, lo),
          hi: Math.max(prev?.hi ?? hi, hi),
          mins: Math.min(prev?.mins ?? r.mins, r.mins),
          maxs: Math.max(prev?.maxs ?? r.maxs, r.maxs),
        });
      }
  return [...spans.values()]
    .sort((a, b) => a.type.localeCompare(b.type) || naturalSort(a.name, b.name))
    .map((s) => ({ type: s.type, name: s.name, rows: map.rows.slice(s.lo, s.hi + 1), mins: s.mins, maxs: s.maxs }));
}

type Hit = { camera: SeatMapCamera; region: SeatMapRegion };

function* regionsOf(map: SeatMap, type: string, section?: string): Generator<Hit & { section: string }> {
  const t = type.toLowerCase();
  for (const camera of map.cameras)
    for (const s of camera.sections)
      if (s.type === t && (section === undefined || s.name === section))
        for (const region of s.regions) yield { camera, region, section: s.name };
}

/**
 * Section and seat names in natural order ('2' before '10'). One collator for every call:
 * `localeCompare` with options builds one per comparison, which was a join's main cost.
 */
export const naturalSort: (a: string, b: string) => number = new Intl.Collator(undefined, { numeric: true }).compare;

export function sectionsOf(map: SeatMap, type: string): string[] {
  return [...new Set([...regionsOf(map, type)].map((h) => h.section))].sort(naturalSort);
}

/** Rows covered in a section, in the row dictionary's order. */
export function rowsOf(map: SeatMap, type: string, section: string): string[] {
  const idx = new Map(map.rows.map((r, i) => [r, i]));
  const covered = new Set<number>();
  for (const { region } of regionsOf(map, type, section)) {
    for (let i = idx.get(region.minr) ?? 0; i <= (idx.get(region.maxr) ?? -1); i++) covered.add(i);
  }
  return [...covered].sort((a, b) => a - b).map((i) => map.rows[i]);
}

function rowFraction(map: SeatMap, region: SeatMapRegion, row: string): number | null {
  const i = map.rows.indexOf(row.toUpperCase());
  const lo = map.rows.indexOf(region.minr);
  const hi = map.rows.indexOf(region.maxr);
  if (i < 0 || i < lo || i > hi) return null;
  return hi === lo ? 0 : (i - lo) / (hi - lo);
}

/** Seats covered in a row, ascending (as strings, as seats travel). */
export function seatsOf(map: SeatMap, type: string, section: string, row: string): string[] {
  const seats = new Set<number>();
  for (const { region } of regionsOf(map, type, section)) {
    if (rowFraction(map, region, row) === null) continue;
    for (let s = region.mins; s <= region.maxs; s++) seats.add(s);
  }
  return [...seats].sort((a, b) => a - b).map(String);
}

/** Every camera region that covers this seat (several when regions overlap). */
export function camerasForSeat(
  map: SeatMap,
  seat: { seatType: string; section: string; row: string; seat: string },
): Hit[] {
  const n = Number(seat.seat);
  if (!Number.isInteger(n)) return [];
  return [...regionsOf(map, seat.seatType, seat.section)].filter(
    ({ region }) => n >= region.mins && n <= region.maxs && rowFraction(map, region, seat.row) !== null,
  );
}

/**
 * Where the camera points for a seat: the region's corners interpolated over row (by the row
 * dictionary's order, top row = 0) and seat (top-left seat = 0), bilinearly, plus the reference.
 */
export function aimAt(map: SeatMap, hit: Hit, seat: { row: string; seat: string }): Aim {
  const { region, camera } = hit;
  const { topLeft: tl, topRight: tr, bottomLeft: bl, bottomRight: br } = region;
  const idx = (r: string) => map.rows.indexOf(r);
  const rowSpan = idx(bl.row) - idx(tl.row);
  const v = rowSpan === 0 ? 0 : (idx(seat.row.toUpperCase()) - idx(tl.row)) / rowSpan;
  const seatSpan = tr.seat - tl.seat;
  const u = seatSpan === 0 ? 0 : (Number(seat.seat) - tl.seat) / seatSpan;
  const lerp = (k: 'pan' | 'tilt') =>
    (1 - u) * (1 - v) * tl[k] + u * (1 - v) * tr[k] + (1 - u) * v * bl[k] + u * v * br[k];
  return {
    pan: Math.round(camera.refPoint.pan + lerp('pan')),
    tilt: Math.round(camera.refPoint.tilt + lerp('tilt')),
    zoom: region.zoomFactor,
    angle: region.angle,
  };
}

/** `configs/queue`: per section name, the cameras and ranges covering it. */
export function queueEntries(map: SeatMap): Record<string, QueueEntry[]> {
  const out: Record<string, QueueEntry[]> = {};
  for (const camera of map.cameras)
    for (const s of camera.sections)
      for (const r of s.regions)
        (out[s.name] ??= []).push({
          cam: camera.camera,
          minr: r.minr,
          maxr: r.maxr,
          mins: r.mins,
          maxs: r.maxs,
          type: s.type,
        });
  return out;
}

const round2 = (n: number) => Math.round(n * 100) / 100;
const stat = (xs: number[]) =>
  xs.length
    ? { max: Math.max(...xs), min: Math.min(...xs), avg: round2(xs.reduce((a, b) => a + b, 0) / xs.length) }
    : { max: 0, min: 0, avg: 0 };

export function regionSeatCount(map: SeatMap, r: SeatMapRegion): number {
  const rows = map.rows.indexOf(r.maxr) - map.rows.indexOf(r.minr) + 1;
  return Math.max(0, rows) * (r.maxs - r.mins + 1);
}

/** Per-camera figures of spec 3 §3 (pan/tilt as stored: relative to the reference). */
export function cameraStats(map: SeatMap): CameraMapStats[] {
  return map.cameras.map((c) => {
    const count = (type: string) => c.sections.filter((s) => s.type === type).length;
    const regions = c.sections.flatMap((s) => s.regions);
    const corners = regions.flatMap((r) => [r.topLeft, r.topRight, r.bottomLeft, r.bottomRight]);
    const zoom = stat(regions.map((r) => r.zoomFactor));
    const angle = stat(regions.map((r) => r.angle));
    const pan = stat(corners.map((k) => k.pan));
    const tilt = stat(corners.map((k) => k.tilt));
    return {
      camera: c.camera,
      numberOfSections: count('section'),
      numberOfBoxes: count('box'),
      numberOfSuites: count('suite'),
      numberOfCustomType1: count('custom_type_1'),
      numberOfCustomType2: count('custom_type_2'),
      numberOfCustomType3: count('custom_type_3'),
      numberOfRegions: regions.length,
      numberOfSeats: regions.reduce((n, r) => n + regionSeatCount(map, r), 0),
      referencePan: c.refPoint.pan,
      referenceTilt: c.refPoint.tilt,
      maxZoom: zoom.max,
      avgZoom: zoom.avg,
      minZoom: zoom.min,
      maxAngle: angle.max,
      avgAngle: angle.avg,
      minAngle: angle.min,
      maxPan: pan.max,
      minPan: pan.min,
      maxTilt: tilt.max,
      minTilt: tilt.min,
    };
  });
}

/** A region of the tool as stored in a map file (corners as given; positions kept). */
export function regionToFile(input: {
  regionType: RegionType;
  corners: MapCorner[];
  angle: number;
  zoomFactor: number;
}): CameraMapFile['sections'][number]['regions'][number] {
  return {
    corners: input.corners,
    zoom_factor: input.zoomFactor,
    angle: input.angle,
    region_type: input.regionType,
  };
}
