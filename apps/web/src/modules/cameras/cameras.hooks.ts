import { useEffect } from 'react';
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { MSG, P, camerasRoutes, type CameraPower, type CameraStatus } from '@stadiumcam/contract';
import { api } from '../../ui/api.ts';
import { confirm, showErrorModal } from '../../ui/feedback.tsx';
import { getConsoleSocket, useSocketEvent } from '../../ui/socket.ts';
import { useCan } from '../auth/session.hooks.ts';
import { useSelectedEvents } from '../events/selection.store.ts';
import { finishPower, settlePower, startPower, usePendingPower } from './camera-power.store.ts';

/** The camera turn-off warning while an event is live (spec 1 §8 confirmations). */
export const CAMERA_OFF_WARNING =
  'The event is live: attendees are using the cameras right now. Consider switching the event to pre or post first.';

function useLiveSelection() {
  const { events } = useSelectedEvents();
  return { anyLive: events.some((e) => e.eventStatus === 'live') };
}

export const CAMERA_STATUS_KEY = ['cameras', 'status'] as const;

/** The power of a camera as last reported (undefined when unknown). */
export function cameraPower(qc: QueryClient, camera: string): CameraPower | undefined {
  return qc.getQueryData<CameraStatus>(CAMERA_STATUS_KEY)?.cameras[camera];
}

/**
 * Camera power map and demo flag (GET /api/cameras/status), kept fresh by the socket: a power
 * change patches it, a host (dis)connecting refetches it (spec 1 §7 Realtime).
 */
export function useCameraStatus() {
  const qc = useQueryClient();
  const allowed = useCan([P.MONITOR_READ, P.CAM_STATUS, P.POWER_BTN], { or: true });
  const query = useQuery({
    queryKey: CAMERA_STATUS_KEY,
    queryFn: () => api(camerasRoutes.status),
    enabled: allowed,
    staleTime: Infinity,
  });
  const patch = (fn: (s: CameraStatus) => CameraStatus) =>
    qc.setQueryData<CameraStatus>(CAMERA_STATUS_KEY, (s) => (s ? fn(s) : s));
  const refetch = () => void qc.invalidateQueries({ queryKey: CAMERA_STATUS_KEY });

  useSocketEvent('monitor power', ({ camera, status }) =>
    patch((s) => ({ ...s, cameras: { ...s.cameras, [camera]: status } })),
  );
  useSocketEvent('monitor camera', (state) =>
    patch((s) =>
      s.cameras[state.camera] === state.status ? s : { ...s, cameras: { ...s.cameras, [state.camera]: state.status } },
    ),
  );
  useSocketEvent('demoModeUpdated', ({ demo }) => patch((s) => ({ ...s, demo })));
  useSocketEvent('monitor socket connected', refetch);
  useSocketEvent('monitor socket disconnected', refetch);
  useEffect(() => {
    if (query.data) settlePower(query.data.cameras);
  }, [query.data]);
  return query;
}

/** Turns the demo mode on or off; the change comes back as 'demoModeUpdated'. */
export function setDemoMode(demo: boolean): Promise<boolean> {
  return new Promise((resolve, reject) => {
    getConsoleSocket().emit('set demo mode', { demo }, (answer) => {
      if (answer.ok) resolve(answer.demo);
      else reject(new Error(answer.error));
    });
  });
}

/** Reads the demo flag from the server (spec 1 §7 "read demo mode"). */
export function getDemoMode(): Promise<boolean> {
  return new Promise((resolve, reject) => {
    getConsoleSocket().emit('get demo mode', (answer) => {
      if (answer.ok) resolve(answer.demo);
      else reject(new Error(answer.error));
    });
  });
}

/** 'all on', 'all off' or 'N down' of a power map. */
export function summarise(cameras: Record<string, CameraPower>): { kind: 'on' | 'off' | 'partial'; down: number } {
  const states = Object.values(cameras);
  const down = states.filter((s) => s === 'off').length;
  if (down === 0) return { kind: 'on', down };
  if (down === states.length) return { kind: 'off', down };
  return { kind: 'partial', down };
}

/**
 * Sends a power command and tracks it until the status changes (spinner), or shows the
 * time-out error (spec 1 §8, spelling as given). Asks first when an event is live.
 */
export function usePowerCommand() {
  const qc = useQueryClient();
  const pending = usePendingPower();
  const { anyLive } = useLiveSelection();

  const run = async (camera: string | null, on: boolean) => {
    if (!on && anyLive) {
      const ok = await confirm({
        title: camera ? `Turn off ${camera}?` : 'Turn off all cameras?',
        text: CAMERA_OFF_WARNING,
        confirmLabel: 'Turn off',
        danger: true,
      });
      if (!ok) return;
    }
    const all = camera === null;
    const known = Object.keys(qc.getQueryData<CameraStatus>(CAMERA_STATUS_KEY)?.cameras ?? {});
    const id = startPower({
      all,
      cameras: all ? known : [camera],
      target: on ? 'on' : 'off',
      onTimeout: () =>
        showErrorModal(MSG.cameras.powerTimeoutText, all ? MSG.cameras.powerTimeoutAll : MSG.cameras.powerTimeoutOne),
    });
    const socket = getConsoleSocket();
    const handleAck = (answer: { ok: true; cameras: string[] } | { ok: false; error: string }) => {
      if (!answer.ok) {
        finishPower(id);
        showErrorModal(answer.error);
        return;
      }
      const status = qc.getQueryData<CameraStatus>(CAMERA_STATUS_KEY)?.cameras ?? {};
      // The host may already report the target before the ack arrives.
      settlePower(status);
    };
    if (all) socket.emit('power all cameras', { on }, handleAck);
    else socket.emit('power camera', { camera, on }, handleAck);
  };

  const isPending = (camera: string | null) =>
    pending.some((p) => (camera === null ? p.all : p.all || p.cameras.includes(camera)));
  return { run, isPending, anyPending: pending.length > 0 };
}
