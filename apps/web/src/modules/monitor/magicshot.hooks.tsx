import { useEffect, useRef, useState } from 'react';
import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import {
  FOCUS_ANIMATION_MS,
  MSG,
  LONG_SUCCESS_MODAL_MS,
  MAGIC_USER_PREFIX,
  SNAPSHOT_BUSY_COUNT,
  SNAPSHOT_BUSY_FALLBACK_MS,
} from '@stadiumcam/contract';
import { getConsoleSocket, useSocketEvent } from '../../ui/socket.ts';

/** Spec 1 §8: "Error taking magicshot", closing itself after 5 s. */
export function showMagicshotError(message: string): void {
  const id = modals.open({
    title: MSG.cameras.magicshotErrorTitle,
    centered: true,
    'data-testid': 'magicshot-error',
    children: <Text>{`Server responded with error message "${message}"`}</Text>,
  } as Parameters<typeof modals.open>[0]);
  setTimeout(() => modals.close(id), LONG_SUCCESS_MODAL_MS);
}

/** A camera's Take photo in progress: the MagicShot's user id once the ack names it, photos seen since. */
type Shot = { userId: string | null; seen: number };

/**
 * Take-photo state per camera (DESIGN §6): busy from the click until its MagicShot arrives,
 * matched by the user id the ack returns. The host acks after its upload, so the photo often
 * arrives first: MagicShot ids seen are remembered, and before the ack names the id any MagicShot
 * of that camera ends it (the documents' rule), as do 3 new photos of that camera; at the
 * latest after 10 s.
 */
export function useMagicShots(slugDate: string | null) {
  const [busy, setBusy] = useState<Record<string, Shot>>({});
  const seenMagic = useRef(new Set<string>());
  const timers = useRef(new Map<string, ReturnType<typeof setTimeout>>());

  const end = (cameras: string[]) => {
    for (const c of cameras) clearTimeout(timers.current.get(c));
    setBusy((b) => {
      if (!cameras.some((c) => c in b)) return b;
      const next = { ...b };
      for (const c of cameras) delete next[c];
      return next;
    });
  };

  useSocketEvent('monitor newSnapshot', (s) => {
    const magic = s.userId.startsWith(MAGIC_USER_PREFIX);
    if (magic) {
      seenMagic.current.add(s.userId);
      if (seenMagic.current.size > 100) seenMagic.current.delete(seenMagic.current.values().next().value!);
    }
    setBusy((b) => {
      const shot = b[s.camera];
      if (!shot) return b;
      const done = magic ? shot.userId === null || shot.userId === s.userId : shot.seen + 1 >= SNAPSHOT_BUSY_COUNT;
      const next = { ...b };
      if (done) delete next[s.camera];
      else next[s.camera] = { ...shot, seen: shot.seen + 1 };
      return next;
    });
  });
  useSocketEvent('magicshot error', ({ camera, message }) => {
    end([camera]);
    showMagicshotError(message);
  });

  useEffect(() => {
    const all = timers.current;
    return () => all.forEach((t) => clearTimeout(t));
  }, []);

  /** `cameras`: the one camera clicked, or every camera that is on for the global button. */
  const take = (camera: string | null, cameras: string[]) => {
    setBusy((b) => ({ ...b, ...Object.fromEntries(cameras.map((c) => [c, { userId: null, seen: 0 }])) }));
    for (const c of cameras) {
      clearTimeout(timers.current.get(c));
      timers.current.set(
        c,
        setTimeout(() => end([c]), SNAPSHOT_BUSY_FALLBACK_MS),
      );
    }
    getConsoleSocket().emit(
      'take MagicShot',
      { ...(slugDate ? { slug: slugDate } : {}), ...(camera ? { camera } : {}) },
      (answer) => {
        if (!answer.ok) {
          end(cameras);
          showMagicshotError(answer.error);
          return;
        }
        const arrived = answer.shots.filter((s) => seenMagic.current.has(s.userId)).map((s) => s.camera);
        // Cameras the server did not shoot with (off meanwhile) are not waited for.
        end([...arrived, ...cameras.filter((c) => !answer.cameras.includes(c))]);
        setBusy((b) => {
          const next = { ...b };
          for (const s of answer.shots)
            if (next[s.camera] && !arrived.includes(s.camera)) next[s.camera] = { ...next[s.camera], userId: s.userId };
          return next;
        });
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
