import { camerasForSeat, sectionSpans } from './seat-map.ts';
import type { SeatMap } from './mapping.contract.ts';

export type CoverageCell = { row: string; seat: number; cams: string[] };
export type SectionCoverage = { type: string; name: string; rows: string[]; seats: number[]; cells: CoverageCell[] };
/** One line of the gap or overlap list: a section's seats, and the cameras involved. */
export type CoverageLine = { section: string; seats: string; cams: string[] };

/**
 * Every section's seats: the rows and seats its regions span (any camera), each with the
 * cameras covering it. A seat inside that span that no camera covers is a gap.
 */
export function coverageOf(map: SeatMap): SectionCoverage[] {
  return sectionSpans(map).map((s) => {
    const rows = [...s.rows].reverse();
    const seats = Array.from({ length: s.maxs - s.mins + 1 }, (_, i) => s.mins + i);
    const cells = rows.flatMap((row) =>
      seats.map((seat) => ({
        row,
        seat,
        cams: camerasForSeat(map, { seatType: s.type, section: s.name, row, seat: String(seat) }).map(
          (h) => h.camera.camera,
        ),
      })),
    );
    return { type: s.type, name: s.name, rows, seats, cells };
  });
}

/** Seats as 'row-seat', the first six then the count when there are more. */
export const seatList = (cells: { row: string; seat: number }[]): string =>
  cells.length > 6
    ? `${cells
        .slice(0, 6)
        .map((c) => `${c.row}-${c.seat}`)
        .join(', ')} … (${cells.length})`
    : cells.map((c) => `${c.row}-${c.seat}`).join(', ');

/** The gap list (seats no camera covers) and the overlap list (seats of several cameras), by section. */
export function coverageLists(sections: SectionCoverage[]): {
  gaps: CoverageLine[];
  overlaps: CoverageLine[];
  gapSeats: number;
  overlapSeats: number;
} {
  const lines = (keep: (c: CoverageCell) => boolean) =>
    sections.flatMap((s) => {
      const cells = s.cells.filter(keep);
      return cells.length
        ? [{ section: `${s.type} ${s.name}`, seats: seatList(cells), cams: [...new Set(cells.flatMap((c) => c.cams))] }]
        : [];
    });
  const count = (keep: (c: CoverageCell) => boolean) => sections.reduce((n, s) => n + s.cells.filter(keep).length, 0);
  const gap = (c: CoverageCell) => !c.cams.length;
  const overlap = (c: CoverageCell) => c.cams.length > 1;
  return { gaps: lines(gap), overlaps: lines(overlap), gapSeats: count(gap), overlapSeats: count(overlap) };
}
