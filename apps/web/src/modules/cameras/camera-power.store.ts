import { useSyncExternalStore } from 'react';
import { CAMERA_POWER_TIMEOUT_MS, type CameraPower } from '@stadiumcam/contract';

/**
 * Power commands waiting for the camera status to change (spec 1 §4 Camera power). Shared by
 * the header's power menu and the monitor's tiles so both show the same spinner. A command
 * is done when every camera it names reports the target status; the caller gets `onTimeout`
 * when that has not happened within CAMERA_POWER_TIMEOUT_MS.
 */
type Pending = {
  id: number;
  all: boolean;
  cameras: string[];
  target: CameraPower;
  timer: ReturnType<typeof setTimeout>;
};

let pending: Pending[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());

export function startPower(opts: {
  all: boolean;
  cameras: string[];
  target: CameraPower;
  onTimeout: () => void;
}): number {
  const id = nextId++;
  const timer = setTimeout(() => {
    if (!pending.some((p) => p.id === id)) return;
    finishPower(id);
    opts.onTimeout();
  }, CAMERA_POWER_TIMEOUT_MS);
  pending = [...pending, { id, all: opts.all, cameras: opts.cameras, target: opts.target, timer }];
  emit();
  return id;
}

export function finishPower(id: number): void {
  const p = pending.find((x) => x.id === id);
  if (!p) return;
  clearTimeout(p.timer);
  pending = pending.filter((x) => x.id !== id);
  emit();
}

/** Drops the commands whose cameras all reached their target. */
export function settlePower(status: Record<string, CameraPower>): void {
  for (const p of pending) {
    if (p.cameras.every((c) => status[c] === p.target)) finishPower(p.id);
  }
}

export function usePendingPower(): Pending[] {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => pending,
  );
}
