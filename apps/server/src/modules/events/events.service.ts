import { randomUUID } from 'node:crypto';
import {
  DEFAULT_SLUG,
  DEFAULT_TIMEZONE,
  EVENT_MAX_MINUTES,
  EVENT_MIN_MINUTES,
  EVENT_TIME_STEP_MINUTES,
  P,
  PROMO_TYPES,
  can,
  type Event,
  type EventCreate,
  type EventField,
  type EventPart,
  type EventUpdate,
  type Permission,
  type Promo,
  type PromoInput,
} from '@stadiumcam/contract';
import type { Deps } from '../../deps.ts';
import { isSafeKey } from '../../media/media-store.ts';
import {
  AppError,
  badRequest,
  conflict,
  forbidden,
  notFound,
  unprocessable,
  ERR,
  type CodedText,
} from '../../errors.ts';
import {
  deleteEventRow,
  findEventBySlugDate,
  findEventOnDay,
  findLiveEvent,
  findTemplate,
  listDatedEventsFrom,
  listEventRows,
  updateEventRow,
  type EventPatch,
  type EventRow,
} from './events.repository.ts';
import { project, toEvent } from './events.mapper.ts';
import {
  addDays,
  floorToStep,
  isGameDate,
  isTimeZone,
  localDate,
  onStep,
  parseInstant,
  todayIn,
  zonedInstant,
} from './events.time.ts';
import { forgetEventMetrics } from './metrics.service.ts';
import { auditNote } from '../../audit-context.ts';

/** Texts of the rules the spec leaves unnamed (see docs/events.md). */
const MINUTE = 60_000;

export async function getEventBySlugDate(deps: Deps, slugDate: string): Promise<Event | null> {
  const row = await findEventBySlugDate(deps.db, slugDate);
  return row ? toEvent(row, deps.log) : null;
}

async function requireEvent(deps: Deps, slugDate: string): Promise<EventRow> {
  const row = await findEventBySlugDate(deps.db, slugDate);
  if (!row) throw notFound(ERR.events.eventNotFound);
  return row;
}

async function requireTemplate(deps: Deps): Promise<EventRow> {
  const row = await findTemplate(deps.db);
  if (!row) throw notFound(ERR.events.noTemplate);
  return row;
}

export async function listEvents(deps: Deps, fields?: EventField[]): Promise<EventPart[]> {
  return (await listEventRows(deps.db)).map((r) => project(toEvent(r, deps.log), fields));
}

/**
 * DESIGN §6: the live event, else today's (in its own zone), else the next upcoming, else
 * the template. Zones differ from UTC by less than a day, so the candidates start the day
 * before UTC's today.
 */
export async function getCurrentEvent(deps: Deps, now = new Date()): Promise<Event> {
  const live = await findLiveEvent(deps.db);
  if (live) return toEvent(live, deps.log);
  const candidates = await listDatedEventsFrom(deps.db, addDays(todayIn('UTC', now), -1), 50);
  const today = candidates.find((r) => r.gameDate === todayIn(r.timezone, now));
  if (today) return toEvent(today, deps.log);
  const upcoming = candidates.find((r) => r.gameDate! > todayIn(r.timezone, now));
  if (upcoming) return toEvent(upcoming, deps.log);
  return toEvent(await requireTemplate(deps), deps.log);
}

function parseTime(text: string, required: CodedText, invalid: CodedText): Date {
  if (!text.trim()) throw unprocessable(required);
  const d = parseInstant(text.trim());
  if (!d) throw badRequest(invalid);
  return d;
}

/** The schedule rules of spec 1 §5 for a dated event, on instants read in its zone. */
function checkSchedule(gameDate: string, start: Date, end: Date, tz: string): void {
  if (localDate(start, tz) !== gameDate) throw unprocessable(ERR.events.startNotOnDay);
  checkLength(start, end, { min: true });
  if (!onStep(start, tz, EVENT_TIME_STEP_MINUTES) || !onStep(end, tz, EVENT_TIME_STEP_MINUTES)) {
    throw unprocessable(ERR.events.timeStep);
  }
}

function checkLength(start: Date, end: Date, opts: { min: boolean }): void {
  const minutes = (end.getTime() - start.getTime()) / MINUTE;
  if (minutes <= 0) throw unprocessable(ERR.events.endAfterStart);
  if (opts.min && minutes < EVENT_MIN_MINUTES) throw unprocessable(ERR.events.eventTooShort);
  if (minutes > EVENT_MAX_MINUTES) throw unprocessable(ERR.events.eventTooLong);
}

function emitEventUpdated(deps: Deps, payload: { slugDate: string; event?: Event; deleted?: boolean }): void {
  // Every console, not only the event's room: selector and calendar lists of others refresh too.
  deps.realtime.consoles.emit('monitor event updated', payload);
}

/** One dated event as a copy of the master template's configuration (DESIGN §4). */
export async function createEvent(deps: Deps, body: EventCreate, now = new Date()): Promise<Event> {
  const title = body.title.trim();
  if (!title) throw unprocessable(ERR.events.eventNameRequired);
  const start = parseTime(body.startTime, ERR.events.startTimeRequired, ERR.events.invalidStart);
  const end = parseTime(body.endTime, ERR.events.endTimeRequired, ERR.events.invalidEnd);
  if (!isGameDate(body.gameDate)) throw badRequest(ERR.events.invalidGameDate);
  const template = await requireTemplate(deps);
  const tz = body.timezone ?? template.timezone;
  if (!isTimeZone(tz)) throw badRequest(ERR.events.unknownTimeZone);
  const slugDate = `${template.slug}-${body.gameDate}`;
  if (body.slugDate !== slugDate) throw badRequest(ERR.events.slugDateExpected(slugDate));
  if (body.gameDate < todayIn(tz, now)) throw unprocessable(ERR.events.eventInPast);
  checkSchedule(body.gameDate, start, end, tz);
  if (await findEventOnDay(deps.db, body.gameDate)) throw conflict(ERR.events.eventDayTaken);
  // The configuration is the template area's: its one writer copies it and tells everyone.
  const event = await deps.eventConfig.createFromTemplate(
    {
      id: randomUUID(),
      slug: template.slug,
      slugDate,
      template: false,
      title,
      eventStatus: 'pre',
      gameDate: body.gameDate,
      startTime: start,
      endTime: end,
      timezone: tz,
      promo: [],
    },
    template,
  );
  if (!event) throw conflict(ERR.events.eventDayTaken);
  return event;
}

type Actor = { permissions: ReadonlySet<Permission> };

function requirePermission(actor: Actor, perms: Permission[], or = false): void {
  if (!can(actor.permissions, perms, { or })) throw forbidden();
}

function normalisePromos(given: PromoInput[], existing: Promo[]): Promo[] {
  const known = new Set(existing.map((p) => p._id));
  const seen = new Set<string>();
  const out = given.map((p): Promo => {
    const type = p.type.trim();
    if (!type) throw unprocessable(ERR.events.promoTypeRequired);
    if (!(PROMO_TYPES as readonly string[]).includes(type)) throw unprocessable(ERR.events.promoTypeUnknown);
    const start = parseInstant(p.start.trim());
    if (!start) throw unprocessable(ERR.events.timeNotValid);
    if (p._id !== undefined && seen.has(p._id)) throw badRequest(ERR.events.promoDuplicateId);
    if (p._id !== undefined) seen.add(p._id);
    // Ids are the server's: an id it never gave out makes a new promotion.
    const id = p._id !== undefined && known.has(p._id) ? p._id : randomUUID();
    return { _id: id, type: type as Promo['type'], start: start.toISOString() };
  });
  return out.sort((a, b) => a.start.localeCompare(b.start));
}

/**
 * PUT /api/events. Each kind of change has its own permission (contract EventUpdateDataSchema);
 * every rule is checked before anything is written.
 */
export async function updateEvent(deps: Deps, actor: Actor, { slugDate, data }: EventUpdate): Promise<Event> {
  const keys = Object.keys(data).filter((k) => data[k as keyof typeof data] !== undefined);
  if (!keys.length) throw badRequest(ERR.events.nothingToUpdate);
  const isEdit = data.title !== undefined || data.startTime !== undefined;
  if (isEdit) requirePermission(actor, [P.EVENT_WRITE, P.EDIT_EVENT]);
  if (data.eventStatus !== undefined || (!isEdit && data.endTime !== undefined)) {
    requirePermission(actor, [P.EVENT_WRITE, P.POWER_BTN], true);
  }
  if (data.promo !== undefined) requirePermission(actor, [P.EVENT_WRITE, P.LIVE_METRIC], true);

  const row = await requireEvent(deps, slugDate);
  const patch: EventPatch = {};
  if (row.template && (data.eventStatus || data.startTime !== undefined || data.endTime !== undefined)) {
    throw unprocessable(ERR.events.templateNoSchedule);
  }
  if (data.title !== undefined) {
    const title = data.title.trim();
    if (!title) throw unprocessable(ERR.events.eventNameRequired);
    patch.title = title;
  }
  if (isEdit && (data.startTime !== undefined || data.endTime !== undefined)) {
    const start =
      data.startTime !== undefined
        ? parseTime(data.startTime, ERR.events.startTimeRequired, ERR.events.invalidStart)
        : row.startTime!;
    const end =
      data.endTime !== undefined
        ? parseTime(data.endTime, ERR.events.endTimeRequired, ERR.events.invalidEnd)
        : row.endTime!;
    checkSchedule(row.gameDate!, start, end, row.timezone);
    patch.startTime = start;
    patch.endTime = end;
  } else if (data.endTime !== undefined) {
    // The early end ("set the end time to now"): any minute, still after the start.
    const end = parseTime(data.endTime, ERR.events.endTimeRequired, ERR.events.invalidEnd);
    checkLength(row.startTime!, end, { min: false });
    patch.endTime = end;
  }
  if (data.eventStatus !== undefined) patch.eventStatus = data.eventStatus;
  if (data.promo !== undefined) patch.promo = normalisePromos(data.promo, row.promo as Promo[]);

  // The audit log's kind and before/after (docs/audit.md): the status, the early end, promotions or an edit.
  auditNote({
    action:
      data.eventStatus !== undefined
        ? 'event.status'
        : !isEdit && data.endTime !== undefined
          ? 'event.earlyEnd'
          : !isEdit && data.promo !== undefined
            ? 'event.promo'
            : 'event.update',
    detail: {
      before: Object.fromEntries(Object.keys(patch).map((k) => [k, row[k as keyof typeof row] ?? null])),
      after: patch,
    },
  });
  const updated = await updateEventRow(deps.db, slugDate, patch);
  if (!updated) throw notFound(ERR.events.eventNotFound);
  const event = toEvent(updated, deps.log);
  emitEventUpdated(deps, { slugDate, event });
  return event;
}

/** The event and everything of it: snapshots and notifications (cascade), its media folder. */
export async function deleteEvent(deps: Deps, slugDate: string): Promise<void> {
  const row = await requireEvent(deps, slugDate);
  if (row.template) throw unprocessable(ERR.events.templateNoDelete);
  if (row.eventStatus === 'live') throw unprocessable(ERR.events.liveNoDelete);
  if (!(await deleteEventRow(deps.db, slugDate))) throw notFound(ERR.events.eventNotFound);
  forgetEventMetrics(deps, slugDate);
  await removeMediaFolder(deps, slugDate);
  emitEventUpdated(deps, { slugDate, deleted: true });
}

async function removeMediaFolder(deps: Deps, slugDate: string): Promise<void> {
  // slugDate comes from the database, but only a folder at the store's root is ever removed.
  if (!isSafeKey(slugDate) || slugDate.includes('/')) return;
  try {
    await deps.media.removeFolder(slugDate);
  } catch (err) {
    deps.log.warn({ err, slugDate }, 'event media not removed');
  }
}

/** Hours a fresh "today" event lasts at least (see docs/events.md). */
export const TODAY_EVENT_MIN_HOURS = 4;
export const TODAY_EVENT_END = '23:45';
export const TODAY_EVENT_TITLE = 'Game day';
const SYSTEM: Actor = { permissions: new Set([P.EVENT_WRITE]) };

/**
 * First start of a newcomer's venue: today's event exists and is live. Creates it from the
 * template when the day has none (from now, rounded down to 15 minutes, until 23:45 or for
 * at least 4 hours); sets a 'pre' event of today live; leaves a 'post' one as the operator left it.
 */
export async function ensureTodayEventLive(deps: Deps, now = new Date(), retry = true): Promise<Event> {
  const template = await requireTemplate(deps);
  const tz = template.timezone || DEFAULT_TIMEZONE;
  const gameDate = todayIn(tz, now);
  const existing = await findEventOnDay(deps.db, gameDate);
  if (existing) {
    if (existing.eventStatus !== 'pre') return toEvent(existing, deps.log);
    return updateEvent(deps, SYSTEM, { slugDate: existing.slugDate, data: { eventStatus: 'live' } });
  }
  const start = floorToStep(now, EVENT_TIME_STEP_MINUTES);
  const lateEvening = zonedInstant(gameDate, TODAY_EVENT_END, tz);
  const minEnd = new Date(start.getTime() + TODAY_EVENT_MIN_HOURS * 60 * MINUTE);
  const end = lateEvening > minEnd ? lateEvening : minEnd;
  try {
    const created = await createEvent(
      deps,
      {
        gameDate,
        slugDate: `${template.slug || DEFAULT_SLUG}-${gameDate}`,
        startTime: start.toISOString(),
        endTime: end.toISOString(),
        title: TODAY_EVENT_TITLE,
        timezone: tz,
      },
      now,
    );
    return await updateEvent(deps, SYSTEM, { slugDate: created.slugDate, data: { eventStatus: 'live' } });
  } catch (err) {
    // Another caller created today's event first: use theirs.
    if (retry && err instanceof AppError && err.statusCode === 409) return ensureTodayEventLive(deps, now, false);
    throw err;
  }
}
