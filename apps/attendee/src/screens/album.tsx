import type { PublicEvent } from '../api.ts';
import { go } from '../router.ts';
import { useT } from '../texts.tsx';
import { Loading, useMyPhotos } from './photo.tsx';

/** The fan's own photos of this event, newest first. */
export function Album({ event }: { event: PublicEvent }) {
  const t = useT();
  const [photos] = useMyPhotos(event.slugDate);
  if (!photos) return <Loading />;
  return (
    <section className="screen album" data-screen="album">
      <h1>{t('album.title')}</h1>
      {photos.length === 0 ? (
        <p className="muted">{t('album.empty')}</p>
      ) : (
        <div className="grid">
          {photos.map((p) => (
            <button key={p._id} onClick={() => go(`photo/${encodeURIComponent(p._id)}`)}>
              <img src={p.thumbURI} alt="" loading="lazy" />
            </button>
          ))}
        </div>
      )}
    </section>
  );
}
