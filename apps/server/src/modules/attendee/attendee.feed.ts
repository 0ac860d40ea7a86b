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

export function createAttendeeFeed(): AttendeeFeed {
  const listeners = new Map<string, Set<(data: string) => void>>();
  let open = 0;
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
      const set = listeners.get(slugDate);
      if (!set?.size) return;
      const data = JSON.stringify(payload);
      for (const send of set) send(data);
    },
    size: () => open,
  };
}
