import {
  checkEventConfigFields,
  readEventConfig,
  type Event,
  type EventConfig,
  type Overlay,
} from '@stadiumcam/contract';
import type { Deps } from '../../deps.ts';
import { toPublicTemplate } from './public-event.ts';
import { toEvent } from '../events/index.ts';
import type { EventInsert, EventRow } from '../events/index.ts';
import { findTemplateRow, insertEventWithConfig, updateEventConfigs } from './template.repository.ts';
import { auditNote } from '../../audit-context.ts';

/**
 * The one writer of an event's configuration (issue 29 §1, docs/architecture.md "One writer").
 * The template area owns `events.config`: a screen's save, trivia, an .amp import, the demo
 * overlays and a new event all write through here, so every write is checked against the
 * contract's field schemas, happens in one transaction, and is followed once by the same
 * follow-up: every console told, the event cache cleared (here and on the other instances),
 * the events' open attendee apps pushed the new template (across instances).
 */

export type ConfigFields = Partial<EventConfig>;
/**
 * The fields to merge into one event's configuration, or a function of its current (parsed)
 * configuration, run with the event locked (read-modify-write without a lost update); a
 * function answering null leaves that event as it is.
 */
export type ConfigChange = { id: string; fields: ConfigFields | ((current: EventConfig) => ConfigFields | null) };

/** The cluster channel that tells other instances a configuration changed (their event cache). */
const CHANGED = 'event config changed';

/** The follow-up of every write, once per write. */
function afterWrite(deps: Deps, rows: EventRow[]): Event[] {
  if (!rows.length) return [];
  deps.eventCache.clear();
  deps.cluster.publish(CHANGED, { slugDates: rows.map((r) => r.slugDate) });
  return rows.map((row) => {
    const event = toEvent(row, deps.log);
    deps.realtime.consoles.emit('monitor event updated', { slugDate: row.slugDate, event });
    deps.attendeeFeed.publish(row.slugDate, toPublicTemplate(event));
    return event;
  });
}

/**
 * Writes each change in one transaction (all or none), then the follow-up once. Answers the
 * changed events, or null when an id is unknown (nothing written).
 */
export async function writeEventConfigs(deps: Deps, changes: ConfigChange[]): Promise<Event[] | null> {
  const byId = new Map(changes.map((c) => [c.id, c.fields]));
  // The audit log's before/after per event, of the fields this write changes (docs/audit.md).
  const before: Record<string, unknown> = {};
  const after: Record<string, unknown> = {};
  const rows = await updateEventConfigs(deps.db, [...byId.keys()], (row) => {
    const change = byId.get(row.id)!;
    const current = readEventConfig(row.config).config;
    const fields = typeof change === 'function' ? change(current) : change;
    if (fields) {
      before[row.slugDate] = Object.fromEntries(
        Object.keys(fields).map((k) => [k, current[k as keyof typeof current] ?? null]),
      );
      after[row.slugDate] = fields;
    }
    return fields && checkEventConfigFields(fields);
  });
  if (rows) {
    // One event (the usual save): its fields before and after; several: per slug date.
    const slugDates = rows.map((r) => r.slugDate);
    const one = slugDates.length === 1 ? slugDates[0] : null;
    auditNote({
      slugDate: one,
      targets: { slugDates },
      detail: one ? { before: before[one], after: after[one] } : { before, after },
    });
  }
  return rows && afterWrite(deps, rows);
}

/**
 * A new dated event (DESIGN §4): its row with a copy of the template's configuration, parsed
 * (a stored field that no longer parses is logged and copied as its default), in one statement,
 * then the follow-up. Null when the slugDate is taken.
 */
export async function createEventFromTemplate(
  deps: Deps,
  row: Omit<EventInsert, 'config'>,
  template: EventRow,
): Promise<Event | null> {
  const { config, rejected } = readEventConfig(template.config);
  if (rejected.length) deps.log.warn({ fields: rejected }, 'template configuration copied with defaults');
  const inserted = await insertEventWithConfig(deps.db, { ...row, config });
  return inserted && (afterWrite(deps, [inserted])[0] ?? null);
}

/** What the events area calls through Deps (it does not import this area). */
export type EventConfigWriter = {
  createFromTemplate: (row: Omit<EventInsert, 'config'>, template: EventRow) => Promise<Event | null>;
};
export const eventConfigWriter = (deps: Deps): EventConfigWriter => ({
  createFromTemplate: (row, template) => createEventFromTemplate(deps, row, template),
});

/** Other instances' writes clear this instance's event cache too. */
export function listenEventConfigWrites(deps: Deps): void {
  deps.cluster.on(CHANGED, () => deps.eventCache.clear());
}

/** The master template's overlays, only while it has none (the demo overlays of a first start). */
export async function writeTemplateOverlaysIfEmpty(deps: Deps, overlays: Overlay[]): Promise<boolean> {
  const template = await findTemplateRow(deps.db);
  if (!template) return false;
  const written = await writeEventConfigs(deps, [
    { id: template.id, fields: (current) => (current.overlays.length ? null : { overlays }) },
  ]);
  return !!written?.length;
}
