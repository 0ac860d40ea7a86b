import type { PublicEvent } from '../api.ts';
import { go } from '../router.ts';
import { useT } from '../texts.tsx';
import { Loading, isComposite, useMyPhotos, usePhotoName } from './photo.tsx';

/** The fan's own photos of this event, newest first, each with the frame they chose. */
export function Album({ event }: { event: PublicEvent }) {
  const t = useT();
  const name = usePhotoName();
  const [photos] = useMyPhotos(event.slugDate);
  if (!photos) return <Loading />;
  return (
    <section className="screen album" data-screen="album">
      <h1>{t('album.title')}</h1>
      {photos.length === 0 ? (
        <p className="muted">{t('album.empty')}</p>
      ) : (
        <ul className="photo-grid">
          {photos.map((p) => (
            <li key={p._id}>
              <button onClick={() => go(`photo/${encodeURIComponent(p._id)}`)}>
                {/* The framed copy once the fan chose a frame, else the raw photo's thumbnail. */}
                <img src={isComposite(p) ? p.sharedURI : p.thumbURI} alt={name(p)} loading="lazy" />
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
