/**
 * Socket.io events, one typed map per namespace (DESIGN §4). Names the spec quotes are used
 * as written. Each area adds its events here.
 */
export type Ack<T = Record<string, unknown>> = (answer: ({ ok: true } & T) | { ok: false; error: string }) => void;

/** Server -> console (namespace /console). */
export type ConsoleServerEvents = {
  'monitor event updated': (payload: { slugDate: string }) => void;
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
