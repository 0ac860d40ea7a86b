/*
 * How a fan's seat is spelled (`@stadiumcam/contract/seat-form`, no zod: the attendee app loads it).
 * One reading for the app's seat form, the server's queue join and the blocked-seat check, the
 * same the seat map makes (seat types in lower case, rows in upper case, seats as integers), so a
 * blocked seat cannot be reached by another spelling of it (docs/security.md §17). What this
 * does not read is refused, never guessed.
 */

/** Every seat type a fan can sit in (the seat options' cards plus `section`). */
export const FAN_SEAT_TYPES = [
  'section',
  'stand',
  'box',
  'suite',
  'custom_type_1',
  'custom_type_2',
  'custom_type_3',
] as const;

export type SeatFields = { seatType: string; section: string; row: string; seat: string };
export type SeatReading = { ok: true; seat: SeatFields } | { ok: false; field: keyof SeatFields };

/** Full-width digits and letters become ASCII (NFKC); spaces are trimmed and runs become one. */
const tidy = (value: unknown) =>
  String(value ?? '')
    .normalize('NFKC')
    .replace(/\s+/g, ' ')
    .trim();
/** Digits only: the number without leading zeros ('017' is 17, '0' stays). */
const number = (value: string) => (/^\d+$/.test(value) ? value.replace(/^0+(?=\d)/, '') : value);

/** A section name: ASCII letters and digits, inner spaces and - ' & /, at most 50 characters (no dot: `208.0`). */
const SECTION = /^[A-Za-z0-9](?:[A-Za-z0-9 '&/-]{0,48}[A-Za-z0-9])?$/;
/** A row label: ASCII letters and digits (and -), at most 20 (the row dictionary's rule). */
const ROW = /^[A-Z0-9](?:[A-Z0-9-]{0,18}[A-Z0-9])?$/;
/** A seat: a whole number as printed on a ticket (no sign, decimals or exponent). */
const SEAT = /^\d{1,6}$/;

export const normaliseSeatType = (value: unknown) => tidy(value).toLowerCase();
export const normaliseSection = (value: unknown) => number(tidy(value));
export const normaliseRow = (value: unknown) => number(tidy(value).toUpperCase());
export const normaliseSeatNumber = (value: unknown) => number(tidy(value));
/** Sections compare without case (the seat map keeps the venue's own spelling). */
export const sectionKey = (value: unknown) => normaliseSection(value).toUpperCase();

/**
 * The seat in its one spelling, or the first field this cannot read: `017` is seat 17, `k` is
 * row K, `０１７` is 17; `17.0`, `+17`, `1.7e1`, an unknown seat type or a name with other
 * characters (zero-width, look-alike letters of another script) are refused.
 */
export function readSeat(input: Partial<Record<keyof SeatFields, unknown>>): SeatReading {
  const seatType = normaliseSeatType(input.seatType ?? 'section');
  if (!(FAN_SEAT_TYPES as readonly string[]).includes(seatType)) return { ok: false, field: 'seatType' };
  const section = normaliseSection(input.section);
  if (!SECTION.test(section)) return { ok: false, field: 'section' };
  const row = normaliseRow(input.row);
  if (!ROW.test(row)) return { ok: false, field: 'row' };
  const seat = normaliseSeatNumber(input.seat);
  if (!SEAT.test(seat)) return { ok: false, field: 'seat' };
  return { ok: true, seat: { seatType, section, row, seat } };
}

/** How a seat type's choices are shown on the seat form (spec 2 Seat option `mode`). */
export type SeatMode = 'grid' | 'list';
export type OfferedSeatType = { type: string; mode: SeatMode };

/**
 * The seat types the event offers fans, in its order (the seat options screen), each with its
 * mode. An entry is a type name (grid) or `{ type|seatType, enabled, forcedDisable, mode }`: only
 * enabled types are offered (one the operator forced off, or the venue has off, is not), each
 * once. With none offered, `section` is, unless the operator forced it off.
 */
export function offeredSeatOptions(seatType: unknown): OfferedSeatType[] {
  const list = Array.isArray(seatType) ? (seatType as unknown[]) : [];
  const seen = new Set<string>();
  let sectionOff = false;
  const types = list.flatMap((o): OfferedSeatType[] => {
    let name: string | null = null;
    let mode: SeatMode = 'grid';
    if (typeof o === 'string') name = normaliseSeatType(o);
    else if (o && typeof o === 'object') {
      const r = o as { seatType?: unknown; type?: unknown; enabled?: unknown; forcedDisable?: unknown; mode?: unknown };
      const raw = typeof r.type === 'string' ? r.type : typeof r.seatType === 'string' ? r.seatType : null;
      if (r.enabled === false || r.forcedDisable === true) {
        if (raw !== null && normaliseSeatType(raw) === 'section' && r.forcedDisable === true) sectionOff = true;
        return [];
      }
      name = raw === null ? null : normaliseSeatType(raw);
      if (r.mode === 'list') mode = 'list';
    }
    if (!name || seen.has(name)) return [];
    seen.add(name);
    return [{ type: name, mode }];
  });
  if (types.length || sectionOff) return types;
  return [{ type: 'section', mode: 'grid' }];
}

/**
 * A seat the operators blocked (spec 2 §3 Blocked seat; `seattype` is also written): compared in
 * the one spelling on both sides. `seat` must already be read by `readSeat`.
 */
export function isBlockedSeat(blocked: unknown, seat: SeatFields): boolean {
  if (!Array.isArray(blocked)) return false;
  const key = (s: SeatFields) => [s.seatType, sectionKey(s.section), s.row, s.seat].join('\u0000');
  const wanted = key(seat);
  return blocked.some((b) => {
    const r = (b ?? {}) as Record<string, unknown>;
    const read = readSeat({ seatType: r.seatType ?? r.seattype, section: r.section, row: r.row, seat: r.seat });
    return read.ok && key(read.seat) === wanted;
  });
}
