import { rowsOf, seatsOf, sectionsOf, type SeatMap } from '@stadiumcam/contract';

/**
 * What every join and every seat picker asks of the loaded seat map, worked out once per map:
 * a load replaces the map whole (it is never changed in place), and a half-time burst asks the
 * same few questions thousands of times. Only answers that name something are kept, so made-up
 * seat types, sections or rows cannot grow the memo. Callers must not change the lists.
 */
const memos = new WeakMap<SeatMap, Map<string, readonly string[]>>();

function memo(map: SeatMap, key: string, compute: () => string[]): readonly string[] {
  let answers = memos.get(map);
  if (!answers) memos.set(map, (answers = new Map()));
  const known = answers.get(key);
  if (known) return known;
  const value = compute();
  if (value.length) answers.set(key, value);
  return value;
}

export const mapSections = (map: SeatMap, type: string) => memo(map, `${type}`, () => sectionsOf(map, type));
export const mapRows = (map: SeatMap, type: string, section: string) =>
  memo(map, `${type}\n${section}`, () => rowsOf(map, type, section));
export const mapSeats = (map: SeatMap, type: string, section: string, row: string) =>
  memo(map, `${type}\n${section}\n${row}`, () => seatsOf(map, type, section, row));
