import type { Cluster } from '../../cluster.ts';

/**
 * Template changes pushed to open attendee apps (server-sent events, docs/attendee-app.md):
 * per event, the listeners of its stream. A save serialises the new public event once, into the
 * whole `event: template` frame as bytes, and every listener writes that same buffer: 10,000
 * phones cost one query, one JSON.stringify and one encoding, not a string copy each.
 */
export type AttendeeFeed = {
  subscribe: (slugDate: string, send: (frame: Buffer) => void) => () => void;
  publish: (slugDate: string, payload: unknown) => void;
  /** Open streams (all events). */
  size: () => number;
  /**
   * A fan's own stream (issue 30 §3): `send(event, data)` gets the pushes meant for this fan id,
   * from this instance or any other (the cluster channel `attendee fan`).
   */
  subscribeFan: (fanId: string, send: (event: string, data: string) => void) => () => void;
  /** Pushes to one fan's streams, on every instance. */
  toFan: (fanId: string, event: string, payload: unknown) => void;
  /** Pushes to this instance's streams of the fan only (state every instance already has). */
  toFanHere: (fanId: string, event: string, payload: unknown) => void;
  /** Whether this instance holds a stream of the fan. */
  hasFan: (fanId: string) => boolean;
};

export function createAttendeeFeed(cluster: Cluster): AttendeeFeed {
  const listeners = new Map<string, Set<(frame: Buffer) => void>>();
  let open = 0;
  const send = (slugDate: string, payload: unknown) => {
    const set = listeners.get(slugDate);
    if (!set?.size) return;
    const frame = Buffer.from(`event: template\ndata: ${JSON.stringify(payload)}\n\n`);
    for (const listener of set) listener(frame);
  };
  // Phones on the other instances hear the same save.
  cluster.on('attendee feed', (p: { slugDate: string; payload: unknown }) => {
    if (typeof p?.slugDate === 'string') send(p.slugDate, p.payload);
  });
  const fans = new Map<string, Set<(event: string, data: string) => void>>();
  const sendFan = (fanId: string, event: string, payload: unknown) => {
    const set = fans.get(fanId);
    if (!set?.size) return;
    const data = JSON.stringify(payload);
    for (const listener of set) listener(event, data);
  };
  cluster.on('attendee fan', (p: { fanId: string; event: string; payload: unknown }) => {
    if (typeof p?.fanId === 'string' && typeof p.event === 'string') sendFan(p.fanId, p.event, p.payload);
  });
  return {
    subscribeFan: (fanId, listener) => {
      let set = fans.get(fanId);
      if (!set) fans.set(fanId, (set = new Set()));
      set.add(listener);
      return () => {
        set.delete(listener);
        if (!set.size) fans.delete(fanId);
      };
    },
    toFan: (fanId, event, payload) => {
      sendFan(fanId, event, payload);
      cluster.publish('attendee fan', { fanId, event, payload });
    },
    toFanHere: sendFan,
    hasFan: (fanId) => fans.has(fanId),
    subscribe: (slugDate, send) => {
      let set = listeners.get(slugDate);
      if (!set) listeners.set(slugDate, (set = new Set()));
      set.add(send);
      open++;
      return () => {
        if (set.delete(send)) open--;
        if (!set.size) listeners.delete(slugDate);
      };
    },
    publish: (slugDate, payload) => {
      send(slugDate, payload);
      cluster.publish('attendee feed', { slugDate, payload });
    },
    size: () => open,
  };
}
