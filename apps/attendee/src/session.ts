import type { AttendeeTextKey } from '@stadiumcam/contract/attendee-texts';

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

export const SEAT_TYPES = [
  'section',
  'stand',
  'box',
  'suite',
  'custom_type_1',
  'custom_type_2',
  'custom_type_3',
] as const;
export const seatTypeText = (type: string): AttendeeTextKey =>
  (SEAT_TYPES as readonly string[]).includes(type) ? (`seatType.${type}` as AttendeeTextKey) : 'seatType.section';

/** How a seat type's choices are shown on the seat form (spec 2 Seat option `mode`). */
export type SeatMode = 'grid' | 'list';
export type OfferedSeatType = { type: string; mode: SeatMode };

/**
 * The seat types the event offers, in its order (the seat options screen), each with its mode.
 * An entry is a type name (grid) or `{ type|seatType, enabled, forcedDisable, mode }`: only
 * enabled types are offered (a forced-off or venue-off one is not), each once. With none
 * offered every fan picks 'section' (grid).
 */
export function offeredSeatOptions(seatType: unknown[]): OfferedSeatType[] {
  const seen = new Set<string>();
  const types = seatType.flatMap((o): OfferedSeatType[] => {
    let name: string | null = null;
    let mode: SeatMode = 'grid';
    if (typeof o === 'string') name = o;
    else if (o && typeof o === 'object') {
      const r = o as { seatType?: unknown; type?: unknown; enabled?: unknown; forcedDisable?: unknown; mode?: unknown };
      if (r.enabled === false || r.forcedDisable === true) return [];
      name = typeof r.type === 'string' ? r.type : typeof r.seatType === 'string' ? r.seatType : null;
      if (r.mode === 'list') mode = 'list';
    }
    if (!name || seen.has(name)) return [];
    seen.add(name);
    return [{ type: name, mode }];
  });
  return types.length ? types : [{ type: 'section', mode: 'grid' }];
}

/** The offered seat types' names, in order. */
export const offeredSeatTypes = (seatType: unknown[]): string[] => offeredSeatOptions(seatType).map((o) => o.type);

const norm = (s: unknown) =>
  String(s ?? '')
    .trim()
    .toLowerCase();

/** A seat the operators blocked (spec 2 §3 Blocked seat; `seattype` is also written). */
export function isBlocked(blocked: unknown[], seat: Seat): boolean {
  return blocked.some((b) => {
    const r = (b ?? {}) as Record<string, unknown>;
    return (
      norm(r.seatType ?? r.seattype) === norm(seat.seatType) &&
      norm(r.section) === norm(seat.section) &&
      norm(r.row) === norm(seat.row) &&
      norm(r.seat) === norm(seat.seat)
    );
  });
}
