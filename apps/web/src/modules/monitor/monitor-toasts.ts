import { MAGICSHOT_TOAST_MS, MAGIC_USER_PREFIX, MSG, SHARE_TOAST_MS } from '@stadiumcam/contract';
import { toast } from '../../ui/feedback.tsx';
import { useSocketEvent } from '../../ui/socket.ts';

/** The monitor's toasts for the watched event (spec 1 §9): a share (5 s), a MagicShot (3 s). */
export function useMonitorToasts(slugDate: string | null) {
  useSocketEvent('monitor snapshotShared', (s) => {
    if (s.slugDate !== slugDate) return;
    const source = s.postObj.at(-1)?.socialSource ?? 'Share';
    toast(MSG.monitorToasts.shared(s.userId, source), { autoClose: SHARE_TOAST_MS, color: 'teal' });
  });
  useSocketEvent('monitor newSnapshot', (s) => {
    if (s.slugDate !== slugDate || !(s.magicshot || s.userId.startsWith(MAGIC_USER_PREFIX))) return;
    toast(MSG.monitorToasts.magicShot(s.camera), { autoClose: MAGICSHOT_TOAST_MS, color: 'yellow' });
  });
}
