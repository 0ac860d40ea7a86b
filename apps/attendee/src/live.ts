import { useEffect, useState } from 'react';
import { fanToken, publicApi, type PublicEvent, type PublicTemplate } from './api.ts';
import { isPreview } from './preview.ts';

export type LiveState = { event?: PublicEvent; error?: boolean };

/** A stream the server refused (its caps answer Retry-After: 30) is opened again after this. */
const REOPEN_MS = 30_000;

/** What the server pushes to this fan on its stream (issue 30 §3): its queue place, its new photo. */
export type FanPush = { name: 'queue' | 'photo'; data: unknown };
const fanListeners = new Set<(push: FanPush) => void>();
let streamOpen = false;
/** The fan's last `queue` push: the join's own report can come before the queue screen listens. */
let lastQueue: unknown = null;
export const lastQueuePush = () => lastQueue;
/** Listens to the fan's pushes; returns the way to stop. */
export function onFanPush(listener: (push: FanPush) => void): () => void {
  fanListeners.add(listener);
  return () => void fanListeners.delete(listener);
}
/** Whether the stream is open now: while it is not, screens fall back to asking slowly. */
export const fanStreamOpen = () => streamOpen;

/**
 * The event and its template, kept current without a reload: the server pushes each saved
 * change on a server-sent-events stream (EventSource reconnects by itself; after a reconnect the
 * event is fetched again in case a change was missed). Why SSE: docs/attendee-app.md.
 */
export function useLiveEvent(slugDate: string | undefined): LiveState {
  const [state, setState] = useState<LiveState>({});
  useEffect(() => {
    let stop = false;
    let source: EventSource | undefined;
    const load = () =>
      publicApi.event(slugDate).then(
        (event) => {
          if (stop) return;
          setState({ event });
          // Previews in the console stay still: no stream each (browsers allow 6 connections per host).
          if (!source && !isPreview) listen(event.slugDate);
        },
        () => !stop && setState((s) => (s.event ? s : { error: true })),
      );
    const listen = (slug: string) => {
      void fanToken().then(
        (token) => !stop && open(slug, token),
        () => !stop && setTimeout(() => listen(slug), REOPEN_MS),
      );
    };
    const open = (slug: string, token: string) => {
      // Opened again after a refusal: a change made meanwhile is fetched once it is open.
      let dropped = source !== undefined;
      source?.close();
      source = new EventSource(publicApi.streamUrl(slug, token));
      for (const name of ['queue', 'photo'] as const)
        source.addEventListener(name, (e) => {
          const data = JSON.parse((e as MessageEvent<string>).data) as unknown;
          if (name === 'queue') lastQueue = data;
          for (const listener of fanListeners) listener({ name, data });
        });
      source.addEventListener('template', (e) => {
        const template = JSON.parse((e as MessageEvent<string>).data) as PublicTemplate;
        setState((s) => (s.event ? { event: { ...s.event, ...template } } : s));
      });
      const self = source;
      source.onerror = () => {
        dropped = true;
        streamOpen = false;
        // Refused (a cap, 503 with Retry-After) or no longer valid: the browser gives up; try again later.
        if (self.readyState === EventSource.CLOSED)
          setTimeout(() => {
            if (!stop && source === self) listen(slug);
          }, REOPEN_MS);
      };
      source.onopen = () => {
        streamOpen = true;
        if (dropped) void load();
        dropped = false;
      };
    };
    void load();
    return () => {
      stop = true;
      streamOpen = false;
      source?.close();
    };
  }, [slugDate]);
  return state;
}
