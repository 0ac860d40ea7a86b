import { useEffect, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { camerasRoutes, type CameraState } from '@stadiumcam/contract';
import { api } from '../../ui/api.ts';
import { getConsoleSocket, useSocketEvent } from '../../ui/socket.ts';
import { liveDeadline, secondsLeft } from './live-time.ts';

type MonitorData = { cameras: MonitorCamera[]; demo: boolean };
export const MONITOR_CAMERAS_KEY = ['monitor', 'cameras'] as const;

/**
 * A camera's state plus when its current turn ends (the countdown runs to it) and when the state
 * came (the countdown counts from no earlier than that). Both ms since epoch.
 */
export type MonitorCamera = CameraState & { liveUntil: number; seenAt: number };

const stamp = (c: CameraState, previous?: MonitorCamera): MonitorCamera => {
  const now = Date.now();
  return { ...c, liveUntil: liveDeadline(previous?.liveUntil, c.liveTime, now), seenAt: now };
};

/**
 * Every camera as the monitor shows it: GET /api/cameras/monitor for the first paint, then the
 * socket's camera events patch it (spec 1 §7 Realtime).
 */
export function useMonitorCameras() {
  const qc = useQueryClient();
  const query = useQuery({
    queryKey: MONITOR_CAMERAS_KEY,
    queryFn: async () => {
      const data = await api(camerasRoutes.monitor);
      return { ...data, cameras: data.cameras.map((c) => stamp(c)) };
    },
    staleTime: Infinity,
  });
  const patch = (camera: string, fn: (c: MonitorCamera) => MonitorCamera) =>
    qc.setQueryData<MonitorData>(MONITOR_CAMERAS_KEY, (d) =>
      d ? { ...d, cameras: d.cameras.map((c) => (c.camera === camera ? fn(c) : c)) } : d,
    );
  const refetch = () => void qc.invalidateQueries({ queryKey: MONITOR_CAMERAS_KEY });

  useSocketEvent('monitor camera', (state) =>
    qc.setQueryData<MonitorData>(MONITOR_CAMERAS_KEY, (d) => {
      if (!d) return d;
      const prev = d.cameras.find((c) => c.camera === state.camera);
      const next = stamp(state, prev);
      return {
        ...d,
        cameras: prev
          ? d.cameras.map((c) => (c.camera === state.camera ? next : c))
          : [...d.cameras, next].sort((a, b) => a.camera.localeCompare(b.camera)),
      };
    }),
  );
  useSocketEvent('monitor power', ({ camera, status }) => patch(camera, (c) => ({ ...c, status })));
  useSocketEvent('monitor queue', ({ camera, queue }) => patch(camera, (c) => ({ ...c, queue })));
  useSocketEvent('monitor firstSrs', ({ camera, firstSrs }) => patch(camera, (c) => ({ ...c, firstSrs })));
  useSocketEvent('monitor panZoom', ({ camera, panAndZoom }) => patch(camera, (c) => ({ ...c, panAndZoom })));
  useSocketEvent('demoModeUpdated', ({ demo }) =>
    qc.setQueryData<MonitorData>(MONITOR_CAMERAS_KEY, (d) => (d ? { ...d, demo } : d)),
  );
  useSocketEvent('monitor socket connected', refetch);
  useSocketEvent('monitor socket disconnected', refetch);
  return query;
}

/**
 * Joins each camera's live stream for as long as the monitor shows it, and again after a
 * reconnect (the server forgets a socket's rooms when it drops).
 */
export function useLivestreams(room: string, cameras: string[]) {
  const key = cameras.join(',');
  useEffect(() => {
    const socket = getConsoleSocket();
    const names = key ? key.split(',') : [];
    const join = () => {
      for (const camera of names) {
        socket.emit('join monitor livestream', { room, camera }, (answer) => {
          if (!answer.ok) console.warn(`livestream ${camera}: ${answer.error}`);
        });
      }
    };
    join();
    // 'connect' is socket.io's own event, outside the contract's map.
    socket.on('connect', join);
    return () => {
      socket.off('connect', join);
      for (const camera of names) socket.emit('leave livestream', { room, camera }, () => undefined);
    };
  }, [room, key]);
}

/** Seconds left of the current attendee's turn, ticking as each second of it ends. */
export function useLiveTimeLeft(camera: MonitorCamera): number {
  const end = camera.liveUntil;
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const left = end - Date.now();
    if (left <= 0) return;
    // Wake when the shown figure changes (a whole second before the end), not a second after
    // whenever the tile mounted: that lagged up to a second behind the host's count.
    const t = setTimeout(() => setNow(Date.now()), left % 1000 || 1000);
    return () => clearTimeout(t);
  }, [end, now]);
  // A new turn renders before any tick: count from when it came, not the last tick (that read 0:07).
  return secondsLeft(end, Math.max(now, camera.seenAt));
}
