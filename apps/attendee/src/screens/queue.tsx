import { useEffect, useState } from 'react';
import { call, publicApi, userId, type PublicEvent } from '../api.ts';
import { go } from '../router.ts';
import { store } from '../session.ts';
import { useT } from '../texts.tsx';
import { CameraIcon } from './landing.tsx';
import { isPreview } from '../preview.ts';

/** How often a queued fan's phone asks for its place and its photo. */
const POLL_MS = 3000;

/** Position and camera while waiting; moves on to the photo as soon as it exists. */
export function Queue({ event }: { event: PublicEvent }) {
  const t = useT();
  const ticket = isPreview
    ? {
        slugDate: event.slugDate,
        camera: 'cam1',
        position: 3,
        joinedAt: '',
        seat: { seatType: 'section', section: '104', row: 'F', seat: '12' },
      }
    : store.ticket();
  const [place, setPlace] = useState({ camera: ticket?.camera ?? '', position: ticket?.position ?? 0 });

  useEffect(() => {
    if (!ticket || isPreview) return;
    let stop = false;
    const tick = async () => {
      try {
        const [photos, now] = await Promise.all([
          publicApi.snapshots(event.slugDate, userId()),
          call<{ camera: string | null; position: number }>(
            'GET',
            `queue/position?userId=${encodeURIComponent(userId())}`,
          ),
        ]);
        if (stop) return;
        const fresh = photos.find((p) => p.date >= ticket.joinedAt);
        if (fresh) {
          store.setTicket(null);
          go(`photo/${encodeURIComponent(fresh._id)}`);
          return;
        }
        if (now.camera) setPlace({ camera: now.camera, position: now.position });
      } catch {
        /* offline for a moment: the next tick tries again */
      }
    };
    void tick();
    const timer = setInterval(() => void tick(), POLL_MS);
    return () => {
      stop = true;
      clearInterval(timer);
    };
    // The ticket is read once per visit of this screen.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [event.slugDate]);

  if (!ticket) {
    go('seat');
    return null;
  }
  return (
    <section className="screen queue" data-screen="queue">
      <div className="pulse">
        <CameraIcon />
      </div>
      <h1>{t('queue.title')}</h1>
      <p className="big" data-testid="queue-position">
        {place.position <= 1 ? t('queue.next') : t('queue.position', { position: place.position })}
      </p>
      <p className="muted">{t('queue.camera', { camera: place.camera })}</p>
      <p>{t('queue.hint')}</p>
      <div className="shimmer" aria-hidden="true" />
      <button
        className="secondary"
        onClick={() => {
          store.setTicket(null);
          go('seat');
        }}
      >
        {t('queue.changeSeat')}
      </button>
    </section>
  );
}
