import { useEffect, useRef, useState } from 'react';
import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import {
  FOCUS_ANIMATION_MS,
  LONG_SUCCESS_MODAL_MS,
  MAGIC_USER_PREFIX,
  SNAPSHOT_BUSY_COUNT,
} from '@stadiumcam/contract';
import { getConsoleSocket, useSocketEvent } from '../../ui/socket.ts';

/** Spec 1 §8: "Error taking magicshot", closing itself after 5 s. */
export function showMagicshotError(message: string): void {
  const id = modals.open({
    title: 'Error taking magicshot',
    centered: true,
    'data-testid': 'magicshot-error',
    children: <Text>{`Server responded with error message "${message}"`}</Text>,
  } as Parameters<typeof modals.open>[0]);
  setTimeout(() => modals.close(id), LONG_SUCCESS_MODAL_MS);
}

/**
 * Take-photo state per camera (spec 1 §4): busy from the click until 3 new photos from that
 * camera arrived, or at once when one of them is the operator's MagicShot (user id MAGIC...).
 */
export function useMagicShots(slugDate: string | null) {
  const [busy, setBusy] = useState<Record<string, number>>({});

  useSocketEvent('monitor newSnapshot', (s) => {
    setBusy((b) => {
      if (!(s.camera in b)) return b;
      const count = b[s.camera] + 1;
      const next = { ...b };
      if (s.userId.startsWith(MAGIC_USER_PREFIX) || count >= SNAPSHOT_BUSY_COUNT) delete next[s.camera];
      else next[s.camera] = count;
      return next;
    });
  });
  useSocketEvent('magicshot error', ({ camera, message }) => {
    setBusy((b) => {
      const next = { ...b };
      delete next[camera];
      return next;
    });
    showMagicshotError(message);
  });

  const take = (camera: string | null) => {
    if (camera) setBusy((b) => ({ ...b, [camera]: 0 }));
    getConsoleSocket().emit(
      'take MagicShot',
      { ...(slugDate ? { slug: slugDate } : {}), ...(camera ? { camera } : {}) },
      (answer) => {
        if (!answer.ok) {
          setBusy((b) => {
            const next = { ...b };
            if (camera) delete next[camera];
            return next;
          });
          showMagicshotError(answer.error);
          return;
        }
        if (!camera) setBusy((b) => ({ ...b, ...Object.fromEntries(answer.cameras.map((c) => [c, 0])) }));
      },
    );
  };
  return { busy: (camera: string) => camera in busy, anyBusy: Object.keys(busy).length > 0, take };
}

/** Cameras photographing someone right now: the 4 s focus animation (spec 1 §2). */
export function useFocusAnimation(): Record<string, string> {
  const [focus, setFocus] = useState<Record<string, string>>({});
  const timers = useRef(new Map<string, ReturnType<typeof setTimeout>>());
  useSocketEvent('takeSnapshot', ({ camera, userId }) => {
    setFocus((f) => ({ ...f, [camera]: userId }));
    clearTimeout(timers.current.get(camera));
    timers.current.set(
      camera,
      setTimeout(() => {
        setFocus((f) => {
          const next = { ...f };
          delete next[camera];
          return next;
        });
      }, FOCUS_ANIMATION_MS),
    );
  });
  useEffect(() => {
    const all = timers.current;
    return () => all.forEach((t) => clearTimeout(t));
  }, []);
  return focus;
}
