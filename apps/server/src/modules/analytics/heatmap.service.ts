import { naturalSort, sectionSpans, type Heatmap, type HeatmapQuery } from '@stadiumcam/contract';
import type { Deps } from '../../deps.ts';
import { ERR, notFound } from '../../errors.ts';
import * as repo from './analytics.repository.ts';

/*
 * The seat heat map (issue 32 point 3; docs/analytics.md, Seat heat map): per section, and per
 * seat of one section, the joins, photos or shares of an event and of the event it is compared
 * with. Read from the seat roll-up (seat_counts), never from the photos. The sections are the
 * seat map's, so the console draws the whole bowl (a section nobody sat in is 0), plus any
 * section counted that the map does not hold (an older map, a seat typed by hand).
 */

const keyOf = (seatType: string, section: string) => `${seatType}\n${section}`;

type Section = Heatmap['sections'][number];

export async function heatmap(deps: Deps, slugDate: string, q: HeatmapQuery): Promise<Heatmap> {
  // The joins of the last second are still in memory: written first, they count.
  await deps.queueJoins.flush();
  const event = await repo.findEvent(deps.db, slugDate);
  const other = q.compare === undefined ? null : await repo.findEvent(deps.db, q.compare);
  if (!event || (q.compare !== undefined && !other)) throw notFound(ERR.events.eventNotFound);
  const slugDates = other ? [event.slugDate, other.slugDate] : [event.slugDate];
  const map = deps.seatMap.current;
  const rowOrder = new Map(map.rows.map((r, i) => [r, i]));
  const byRow = (a: string, b: string) =>
    (rowOrder.get(a) ?? Infinity) - (rowOrder.get(b) ?? Infinity) || naturalSort(a, b);

  const sections = new Map<string, Section>();
  const spans = sectionSpans(map);
  const mapped = new Set(spans.map((s) => keyOf(s.type, s.name)));
  for (const s of spans)
    sections.set(keyOf(s.type, s.name), {
      seatType: s.type,
      section: s.name,
      rows: s.rows,
      mins: s.mins,
      maxs: s.maxs,
      count: 0,
      compareCount: other ? 0 : null,
    });
  for (const r of await repo.sectionCounts(deps.db, slugDates, q.metric)) {
    const key = keyOf(r.seatType, r.section);
    let s = sections.get(key);
    if (!s) {
      // Counted but not in the seat map (an older map, a seat typed by hand): drawn all the
      // same; its rows and seats are known once it is asked for.
      s = {
        seatType: r.seatType,
        section: r.section,
        rows: [],
        mins: 1,
        maxs: 0,
        count: 0,
        compareCount: other ? 0 : null,
      };
      sections.set(key, s);
    }
    if (r.slugDate === event.slugDate) s.count += r.n;
    else s.compareCount = (s.compareCount ?? 0) + r.n;
  }

  let seats: Heatmap['seats'] = null;
  if (q.section !== undefined) {
    const seatType = q.seatType ?? 'section';
    const cells = new Map<string, NonNullable<Heatmap['seats']>[number]>();
    for (const r of await repo.seatCountsOf(deps.db, slugDates, seatType, q.section, q.metric)) {
      const key = `${r.row}\n${r.seat}`;
      const cell = cells.get(key) ?? { row: r.row, seat: r.seat, count: 0, compareCount: other ? 0 : null };
      if (r.slugDate === event.slugDate) cell.count += r.n;
      else cell.compareCount = (cell.compareCount ?? 0) + r.n;
      cells.set(key, cell);
    }
    seats = [...cells.values()].sort((a, b) => byRow(a.row, b.row) || naturalSort(a.seat, b.seat));
    const asked = sections.get(keyOf(seatType, q.section));
    if (asked && !mapped.has(keyOf(seatType, q.section))) {
      const numbers = seats.map((c) => Number(c.seat)).filter((n) => Number.isInteger(n) && n > 0);
      asked.rows = [...new Set(seats.map((c) => c.row))].sort(byRow);
      asked.mins = numbers.length ? Math.min(...numbers) : 1;
      asked.maxs = numbers.length ? Math.max(...numbers) : 0;
    }
  }
  return {
    metric: q.metric,
    event: { slugDate: event.slugDate, title: event.title },
    compare: other ? { slugDate: other.slugDate, title: other.title } : null,
    sections: [...sections.values()].sort(
      (a, b) => a.seatType.localeCompare(b.seatType) || naturalSort(a.section, b.section),
    ),
    seats,
  };
}
