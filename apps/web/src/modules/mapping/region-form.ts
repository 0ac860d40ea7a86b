import type { RegionInput, RegionType, SeatMapRegion } from '@stadiumcam/contract';

/** The mapping tool's region form (spec 3 §2.8, §4, §5): values as typed, corners relative to the reference. */
export type CornerKey = 'topLeft' | 'topRight' | 'bottomLeft' | 'bottomRight';
export type CornerValues = { row: string; seat: string; pan: string; tilt: string };
export type RegionForm = {
  type: string;
  name: string;
  regionType: RegionType;
  corners: Record<CornerKey, CornerValues>;
  angle: string;
  zoomFactor: string;
};

export const CORNERS: { key: CornerKey; label: string; position: RegionInput['corners'][number]['position'] }[] = [
  { key: 'topLeft', label: 'Top Left', position: 'top_left' },
  { key: 'topRight', label: 'Top Right', position: 'top_right' },
  { key: 'bottomLeft', label: 'Bottom Left', position: 'bottom_left' },
  { key: 'bottomRight', label: 'Bottom Right', position: 'bottom_right' },
];

/** Cross check order (spec 3 §4). */
export const CROSS_CHECK: CornerKey[] = ['topLeft', 'bottomRight', 'topRight', 'bottomLeft', 'topLeft'];

const emptyCorner = (): CornerValues => ({ row: '', seat: '', pan: '', tilt: '' });

/** After a successful save on Map (spec 3 §4): default type, section, empty name, angle 0. */
export const emptyRegionForm = (): RegionForm => ({
  type: 'section',
  name: '',
  regionType: 'default',
  corners: { topLeft: emptyCorner(), topRight: emptyCorner(), bottomLeft: emptyCorner(), bottomRight: emptyCorner() },
  angle: '0',
  zoomFactor: '0.8',
});

/** Corners the technician edits; the others follow (spec 3 §4 editable corners by region type). */
export function isCornerDisabled(regionType: RegionType, corner: CornerKey): boolean {
  if (regionType === 'singleSeat') return corner !== 'topLeft';
  if (regionType === 'singleRow') return corner === 'bottomLeft' || corner === 'bottomRight';
  return corner === 'topRight' || corner === 'bottomLeft';
}

/** The linked corners follow the editable ones. */
export function linkCorners(f: RegionForm): RegionForm {
  const { topLeft: tl, topRight: tr, bottomRight: br } = f.corners;
  let corners = f.corners;
  if (f.regionType === 'singleSeat') corners = { topLeft: tl, topRight: tl, bottomLeft: tl, bottomRight: tl };
  else if (f.regionType === 'singleRow') corners = { topLeft: tl, topRight: tr, bottomLeft: tl, bottomRight: tr };
  else
    corners = {
      topLeft: tl,
      topRight: { row: tl.row, seat: br.seat, pan: br.pan, tilt: tl.tilt },
      bottomLeft: { row: br.row, seat: tl.seat, pan: tl.pan, tilt: br.tilt },
      bottomRight: br,
    };
  return { ...f, corners };
}

/** Changing the region type (spec 3 §4): singleSeat defaults row and seat to '1' and copies top-left. */
export function withRegionType(f: RegionForm, regionType: RegionType): RegionForm {
  let next = { ...f, regionType };
  if (regionType === 'singleSeat') {
    const tl = f.corners.topLeft;
    next = { ...next, corners: { ...f.corners, topLeft: { ...tl, row: tl.row || '1', seat: tl.seat || '1' } } };
  }
  return linkCorners(next);
}

const isNum = (s: string) => s.trim() !== '' && Number.isFinite(Number(s));

/** spec 3 §5 region creation rules; the first broken rule's text, or the values to send. */
export function checkRegion(f: RegionForm): { error: string } | { region: RegionInput } {
  const linked = linkCorners(f);
  if (!f.name.trim()) return { error: 'Section name is required' };
  if (!f.type.trim()) return { error: 'Section type is required' };
  for (const c of CORNERS) {
    const v = linked.corners[c.key];
    if (!v.row.trim() || ![v.seat, v.pan, v.tilt].every(isNum))
      return { error: `${c.label}: pan, tilt, row and seat must be filled in (numbers for pan, tilt and seat)` };
  }
  if (!isNum(f.angle) || !isNum(f.zoomFactor)) return { error: 'Angle and zoom factor must be numbers' };
  return {
    region: {
      name: f.name.trim(),
      type: f.type.trim().toLowerCase(),
      regionType: f.regionType,
      corners: CORNERS.map((c) => {
        const v = linked.corners[c.key];
        return {
          position: c.position,
          row: v.row.trim().toUpperCase(),
          seat: Math.trunc(Number(v.seat)),
          pan: Math.trunc(Number(v.pan)),
          tilt: Math.trunc(Number(v.tilt)),
        };
      }),
      angle: Number(f.angle),
      zoomFactor: Number(f.zoomFactor),
    },
  };
}

/** A saved region in the form (Check tab). */
export function formOf(section: { name: string; type: string }, r: SeatMapRegion): RegionForm {
  const c = (x: SeatMapRegion['topLeft']): CornerValues => ({
    row: x.row,
    seat: String(x.seat),
    pan: String(x.pan),
    tilt: String(x.tilt),
  });
  return {
    type: section.type,
    name: section.name,
    regionType: r.regionType,
    corners: {
      topLeft: c(r.topLeft),
      topRight: c(r.topRight),
      bottomLeft: c(r.bottomLeft),
      bottomRight: c(r.bottomRight),
    },
    angle: String(r.angle),
    zoomFactor: String(r.zoomFactor),
  };
}
