import { useEffect, useState } from 'react';
import { publicApi, userId, type PublicEvent, type PublicSnapshot } from '../api.ts';
import { go } from '../router.ts';
import { useT, useTimeOfDay } from '../texts.tsx';
import { SAMPLE_PHOTO, isPreview } from '../preview.ts';

/** How soon, and how often (a minute), a photo screen asks again while its photo is not in the answer. */
const PHOTO_RETRY_MS = 3000;
const PHOTO_TRIES = 20;

/**
 * The fan's photos of this event (asked when a screen opens). With `id` (the photo and share
 * screens), asked again every few seconds until that photo is in the answer: one failed ask on
 * a busy Wi-Fi must not leave the fan in front of "on its way" for good.
 */
export function useMyPhotos(slugDate: string, id?: string) {
  const [photos, setPhotos] = useState<PublicSnapshot[] | null>(isPreview ? [SAMPLE_PHOTO] : null);
  useEffect(() => {
    if (isPreview) return;
    let stop = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let tries = 0;
    const again = () => {
      if (id !== undefined && ++tries < PHOTO_TRIES) timer = setTimeout(() => void ask(), PHOTO_RETRY_MS);
    };
    const ask = (): Promise<void> =>
      publicApi.snapshots(slugDate, userId()).then(
        (p) => {
          if (stop) return;
          setPhotos(p);
          if (!p.some((photo) => photo._id === id)) again();
        },
        () => {
          if (stop) return;
          setPhotos((kept) => kept ?? []);
          again();
        },
      );
    void ask();
    return () => {
      stop = true;
      clearTimeout(timer);
    };
  }, [slugDate, id]);
  return [photos, setPhotos] as const;
}

/** The photo as a screen reader says it: when and where it was taken. */
export function usePhotoName(): (photo: PublicSnapshot) => string {
  const t = useT();
  const time = useTimeOfDay();
  return (p) => t('photo.alt', { time: time(p.date), section: p.section, row: p.row, seat: p.seat });
}

/** The server's copy with the fan's frame (and the watermark), once they chose one. */
export const isComposite = (photo: PublicSnapshot) => !!photo.sharedURI && photo.sharedURI !== photo.rawCroppedURI;

/** The photo with the watermark (when set) in its corner. */
export function PhotoView({ photo, event }: { photo: PublicSnapshot; event: PublicEvent }) {
  const name = usePhotoName();
  // A composite made by the server already carries the watermark: drawn here only over the raw photo.
  const watermark = isComposite(photo) ? undefined : event.images.watermarkUrl;
  return (
    <div className="photo">
      <img src={photo.sharedURI || photo.smallURI} alt={name(photo)} data-testid="photo" />
      {watermark && <img className="watermark" src={watermark} alt="" data-testid="watermark" />}
    </div>
  );
}

/** The photo, the overlay choice and the way on to share. */
export function Photo({ event, id }: { event: PublicEvent; id: string }) {
  const t = useT();
  const [photos, setPhotos] = useMyPhotos(event.slugDate, id);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState(false);
  const photo = photos?.find((p) => p._id === id);

  const choose = async (overlay: string | null) => {
    setBusy(overlay ?? '');
    setError(false);
    try {
      const updated = await publicApi.chooseOverlay(id, userId(), overlay);
      setPhotos((list) => list?.map((p) => (p._id === id ? updated : p)) ?? null);
    } catch {
      setError(true);
    } finally {
      setBusy(null);
    }
  };

  if (!photos) return <Loading />;
  if (!photo) return <Waiting />;
  // Only the frames the operators allowed for this photo's section, in their order (spec 2 §4).
  const overlays = event.overlays.filter(
    (o) => !o.sections?.length || o.sections.includes('*') || o.sections.includes(photo.section),
  );
  return (
    <section className="screen photo-screen" data-screen="photo">
      <h1>{t('photo.title')}</h1>
      <PhotoView photo={photo} event={event} />
      {overlays.length > 0 && (
        <>
          <h2 id="overlays-heading">{t('photo.overlays')}</h2>
          <div className="overlays" role="group" aria-labelledby="overlays-heading" data-testid="overlays">
            <button
              className={`overlay none ${photo.overlay ? '' : 'active'}`}
              onClick={() => void choose(null)}
              disabled={busy !== null}
              aria-pressed={!photo.overlay}
            >
              {t('photo.noOverlay')}
            </button>
            {overlays.map((o, i) => (
              <button
                key={o.storageKey}
                className={`overlay ${photo.overlay === o.storageKey ? 'active' : ''}`}
                onClick={() => void choose(o.storageKey)}
                disabled={busy !== null}
                aria-pressed={photo.overlay === o.storageKey}
                aria-label={t('photo.frame', { number: i + 1 })}
                data-overlay={o.storageKey}
              >
                {busy === o.storageKey ? (
                  <span className="spinner" aria-hidden="true" />
                ) : (
                  <img src={o.urlFullSize} alt="" />
                )}
              </button>
            ))}
          </div>
        </>
      )}
      {error && (
        <p className="error" role="alert">
          {t('common.error')}
        </p>
      )}
      <div className="actions">
        <button className="primary" onClick={() => go(`share/${encodeURIComponent(id)}`)}>
          {t('photo.share')}
        </button>
        <button className="secondary" onClick={() => go('seat')}>
          {t('photo.again')}
        </button>
      </div>
    </section>
  );
}

export function Loading() {
  const t = useT();
  return (
    <section className="screen center">
      <span className="spinner" role="img" aria-label={t('common.loading')} />
    </section>
  );
}

function Waiting() {
  const t = useT();
  return (
    <section className="screen center">
      <div className="shimmer tall" aria-hidden="true" />
      <p>{t('photo.waiting')}</p>
    </section>
  );
}
