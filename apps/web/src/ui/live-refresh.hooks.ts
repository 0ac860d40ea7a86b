import { useEffect, useRef } from 'react';
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { ANALYTICS_LIVE_REFRESH_MS } from '@stadiumcam/contract';
import { useSocketEvent } from './socket.ts';

/**
 * While an event is live, its new, shared, banned or deleted photos (socket events of its room)
 * refetch `queryKey`, at most once per 10 s: socket-driven, never polled, and a busy venue
 * costs one refetch per 10 s however many photos arrive.
 */
export function useLiveRefresh(slugDate: string | undefined, live: boolean, queryKey: QueryKey) {
  const qc = useQueryClient();
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const last = useRef(0);
  const key = useRef(queryKey);
  useEffect(() => {
    key.current = queryKey;
  });
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  const refresh = ({ slugDate: eventSlug }: { slugDate: string }) => {
    if (!live || eventSlug !== slugDate || timer.current) return;
    timer.current = setTimeout(
      () => {
        timer.current = null;
        last.current = Date.now();
        void qc.invalidateQueries({ queryKey: key.current });
      },
      Math.max(0, last.current + ANALYTICS_LIVE_REFRESH_MS - Date.now()),
    );
  };
  useSocketEvent('monitor newSnapshot', refresh);
  useSocketEvent('monitor snapshotShared', refresh);
  useSocketEvent('bannedChanged', refresh);
  useSocketEvent('snapshotDeleted', refresh);
}
