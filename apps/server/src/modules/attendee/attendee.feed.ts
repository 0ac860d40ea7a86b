import type { Cluster } from '../../cluster.ts';

/**
 * Template changes pushed to open attendee apps (server-sent events, docs/attendee-app.md):
 * per event, the listeners of its stream. A save serialises the new public event once and
 * writes the same text to every listener, so thousands of phones cost one query, not one each.
 */
export type AttendeeFeed = {
  subscribe: (slugDate: string, send: (data: string) => void) => () => void;
  publish: (slugDate: string, payload: unknown) => void;
  /** Open streams (all events). */
  size: () => number;
};

export function createAttendeeFeed(cluster: Cluster): AttendeeFeed {
  const listeners = new Map<string, Set<(data: string) => void>>();
  let open = 0;
  const send = (slugDate: string, payload: unknown) => {
    const set = listeners.get(slugDate);
    if (!set?.size) return;
    const data = JSON.stringify(payload);
    for (const listener of set) listener(data);
  };
  // Phones on the other instances hear the same save.
  cluster.on('attendee feed', (p: { slugDate: string; payload: unknown }) => {
    if (typeof p?.slugDate === 'string') send(p.slugDate, p.payload);
  });
  return {
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
