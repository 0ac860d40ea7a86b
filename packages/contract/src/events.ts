/**
 * Socket.io events, one typed map per namespace (DESIGN §4). Names the spec quotes are used
 * as written. Each area adds its events here.
 */
import type { LiveMetrics, Snapshot } from './snapshots.contract.ts';

export type Ack<T = Record<string, unknown>> = (answer: ({ ok: true } & T) | { ok: false; error: string }) => void;

/** Server -> console (namespace /console). */
export type ConsoleServerEvents = {
  'monitor event updated': (payload: { slugDate: string }) => void;
  /** A photo arrived through the ingest path. */
  'monitor newSnapshot': (snapshot: Snapshot) => void;
  /** An attendee shared (postObj grew) or chose an overlay (sharedURI changed). */
  'monitor snapshotShared': (snapshot: Snapshot) => void;
  snapshotDeleted: (payload: { slugDate: string; ids: string[] }) => void;
  'monitor favoritedSnapshots': (payload: { slugDate: string; ids: string[]; favorite: boolean }) => void;
  /** Photos hidden or shown again: by ids, or every photo of a user. */
  bannedChanged: (payload: { slugDate: string; ids?: string[]; userId?: string; hidden: boolean }) => void;
  /** Live metrics of an event changed (throttled to at most one per second per event). */
  'monitor metrics': (payload: LiveMetrics & { slugDate: string }) => void;
};

/** Console -> server (namespace /console). */
export type ConsoleClientEvents = {
  /** Put this socket in the rooms of the events the operator selected. */
  'select events': (slugDates: string[], ack?: Ack) => void;
};

/** Server -> camera host (namespace /devices). */
export type DeviceServerEvents = Record<string, never>;
/** Camera host -> server (namespace /devices). */
export type DeviceClientEvents = Record<string, never>;
