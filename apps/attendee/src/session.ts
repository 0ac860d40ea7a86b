import type { AttendeeTextKey } from '@stadiumcam/contract/attendee-texts';
import {
  FAN_SEAT_TYPES,
  isBlockedSeat,
  offeredSeatOptions as sharedOffered,
  readSeat,
  type OfferedSeatType,
  type SeatMode,
} from '@stadiumcam/contract/seat-form';

/** What the fan chose, kept on the phone across reloads. */
export type Seat = { seatType: string; section: string; row: string; seat: string };
export type QueueTicket = { slugDate: string; camera: string; position: number; joinedAt: string; seat: Seat };

const read = <T>(key: string): T | null => {
  try {
    return JSON.parse(localStorage.getItem(key) ?? 'null') as T | null;
  } catch {
    return null;
  }
};
const write = (key: string, value: unknown) =>
  value === null ? localStorage.removeItem(key) : localStorage.setItem(key, JSON.stringify(value));

export const store = {
  language: () => localStorage.getItem('stadiumcam.language'),
  setLanguage: (l: string) => localStorage.setItem('stadiumcam.language', l),
  seat: () => read<Seat>('stadiumcam.seat'),
  setSeat: (s: Seat) => write('stadiumcam.seat', s),
  ticket: () => read<QueueTicket>('stadiumcam.ticket'),
  setTicket: (t: QueueTicket | null) => write('stadiumcam.ticket', t),
};

export const SEAT_TYPES = FAN_SEAT_TYPES;
export const seatTypeText = (type: string): AttendeeTextKey =>
  (SEAT_TYPES as readonly string[]).includes(type) ? (`seatType.${type}` as AttendeeTextKey) : 'seatType.section';

export type { SeatMode, OfferedSeatType };

/**
 * The seat types the event offers, in its order, each with its mode: the server's own rule
 * (`@stadiumcam/contract/seat-form`), so the form never offers a type a join is refused for. With
 * none offered (every type off) the form still shows `section`, and the server says why.
 */
export function offeredSeatOptions(seatType: unknown[]): OfferedSeatType[] {
  const offered = sharedOffered(seatType);
  return offered.length ? offered : [{ type: 'section', mode: 'grid' }];
}

/** The offered seat types' names, in order. */
export const offeredSeatTypes = (seatType: unknown[]): string[] => offeredSeatOptions(seatType).map((o) => o.type);

/**
 * The seat as the server and the seat map read it (`017` is 17, `k` is K), or null when it cannot
 * be read (`17.0`, `+17`, other characters): the server refuses those too (docs/security.md §17).
 */
export function cleanSeat(seat: Seat): Seat | null {
  const read = readSeat(seat);
  return read.ok ? read.seat : null;
}

/** A seat the operators blocked (spec 2 §3 Blocked seat), in any spelling the server reads as it. */
export function isBlocked(blocked: unknown[], seat: Seat): boolean {
  const read = readSeat(seat);
  return read.ok && isBlockedSeat(blocked, read.seat);
}
