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

/**
 * The seat types the event offers, in its order (seat options screen; until then every fan
 * picks 'section'). An entry is a type name or `{ seatType|type, enabled }`.
 */
export function offeredSeatTypes(seatType: unknown[]): string[] {
  const types = seatType.flatMap((o) => {
    if (typeof o === 'string') return [o];
    if (o && typeof o === 'object') {
      const r = o as { seatType?: unknown; type?: unknown; enabled?: unknown };
      const name = typeof r.seatType === 'string' ? r.seatType : typeof r.type === 'string' ? r.type : null;
      return name && r.enabled !== false ? [name] : [];
    }
    return [];
  });
  return types.length ? types : ['section'];
}

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
