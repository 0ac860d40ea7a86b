import { useEffect, useState } from 'react';
import { publicApi, type PublicEvent, type PublicTemplate } from './api.ts';
import { isPreview } from './preview.ts';

export type LiveState = { event?: PublicEvent; error?: boolean };

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
      source = new EventSource(publicApi.streamUrl(slug));
      let dropped = false;
      source.addEventListener('template', (e) => {
        const template = JSON.parse((e as MessageEvent<string>).data) as PublicTemplate;
        setState((s) => (s.event ? { event: { ...s.event, ...template } } : s));
      });
      source.onerror = () => {
        dropped = true;
      };
      source.onopen = () => {
        if (dropped) void load();
        dropped = false;
      };
    };
    void load();
    return () => {
      stop = true;
      source?.close();
    };
  }, [slugDate]);
  return state;
}
