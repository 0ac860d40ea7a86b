import { useRef } from 'react';
import { MAGICSHOT_TOAST_MS, MAGIC_USER_PREFIX, MSG, SHARE_TOAST_MS } from '@stadiumcam/contract';
import { toast } from '../../ui/feedback.tsx';
import { useSocketEvent } from '../../ui/socket.ts';

/** The monitor's toasts for the watched event (spec 1 §9): a share (5 s), a MagicShot (3 s). */
export function useMonitorToasts(slugDate: string | null) {
  // The event also comes for an overlay chosen on a photo already shared: a toast only when
  // the photo has more share records than this console last saw.
  const shares = useRef(new Map<string, number>());
  useSocketEvent('monitor snapshotShared', (s) => {
    if (s.slugDate !== slugDate) return;
    const seen = shares.current.get(s._id) ?? 0;
    shares.current.set(s._id, Math.max(seen, s.postObj.length));
    if (s.postObj.length <= seen) return;
    const source = s.postObj.at(-1)?.socialSource ?? 'Share';
    toast(MSG.monitorToasts.shared(s.userId, source), { autoClose: SHARE_TOAST_MS, color: 'teal' });
  });
  useSocketEvent('monitor newSnapshot', (s) => {
    if (s.slugDate !== slugDate || !(s.magicshot || s.userId.startsWith(MAGIC_USER_PREFIX))) return;
    toast(MSG.monitorToasts.magicShot(s.camera), { autoClose: MAGICSHOT_TOAST_MS, color: 'yellow' });
  });
}
