import { useEffect, useMemo, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { io } from 'socket.io-client';
import { MSG, SLIDESHOW_DEFAULTS, slideshowRoutes, type SlideshowImages } from '@stadiumcam/contract';
import { api } from '../../ui/api.ts';
import { isVideo, pickNext } from './slideshow.order.ts';
import classes from './slideshow.module.css';

type Slide = SlideshowImages['snapshots'][number];
const KEY = ['slideshow', 'images'];

/** Reloads the list whenever a favourite changes (public /slideshow socket namespace). */
function useFavouriteReload() {
  const client = useQueryClient();
  useEffect(() => {
    const socket = io('/slideshow', { transports: ['websocket'] });
    socket.on('monitor favoritedSnapshots', () => void client.invalidateQueries({ queryKey: KEY }));
    // After a lost connection the screen may have missed changes.
    socket.io.on('reconnect', () => void client.invalidateQueries({ queryKey: KEY }));
    return () => {
      socket.disconnect();
    };
  }, [client]);
}

function Media({ uri, className }: { uri: string; className: string }) {
  return isVideo(uri) ? (
    <video className={className} src={uri} autoPlay muted loop playsInline data-testid="slide-video" />
  ) : (
    <img className={className} src={uri} alt="" decoding="async" />
  );
}

/** Public slideshow for venue screens (spec 3 §2.9): no controls, thumbnails on the right. */
export function SlideshowPage() {
  useFavouriteReload();
  const query = useQuery({
    queryKey: KEY,
    queryFn: () => api(slideshowRoutes.images),
    // A venue screen runs for hours: after two retries say 'NO IMAGES AVAILABLE' (spec 3 §8) and
    // keep asking on the interval and on a reconnect; a later failure keeps the last good list.
    retry: 2,
    refetchInterval: 5 * 60_000,
    refetchIntervalInBackground: true,
  });
  // A loading failure is logged (spec 3 §8), once per failed attempt.
  const failure = query.failureReason;
  useEffect(() => {
    if (failure) console.error('Slideshow: loading the images failed', failure);
  }, [failure]);
  const settings = { ...SLIDESHOW_DEFAULTS, ...query.data?.slideshowSettings };
  const slides = useMemo(() => query.data?.snapshots ?? [], [query.data]);
  const ids = useMemo(() => slides.map((s) => s._id), [slides]);
  const [current, setCurrent] = useState<string>();
  const [previous, setPrevious] = useState<string>();
  const shown = useRef(new Set<string>());
  const thumbs = useRef<HTMLDivElement>(null);

  // Advance every transitionTime ms; a reload keeps the current slide while it still exists.
  useEffect(() => {
    const advance = () => {
      setCurrent((last) => {
        const next = pickNext(ids, shown.current, last);
        shown.current = next.shown;
        setPrevious(last !== next.id ? last : undefined);
        return next.id;
      });
    };
    if (current === undefined || !ids.includes(current)) advance();
    const timer = window.setInterval(advance, settings.transitionTime);
    return () => window.clearInterval(timer);
    // `current` is read only to start at once after a reload; the timer owns advancing.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [ids, settings.transitionTime]);

  useEffect(() => {
    thumbs.current?.querySelector('[data-active="true"]')?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  }, [current]);

  if (query.isPending) return <div className={classes.message}>{MSG.templateParts.slideshowLoading}</div>;
  if (query.isError && !query.data) return <div className={classes.message}>{MSG.templateParts.slideshowEmpty}</div>;
  if (slides.length === 0) return <div className={classes.message}>{MSG.templateParts.slideshowEmpty}</div>;

  const byId = new Map<string, Slide>(slides.map((s) => [s._id, s]));
  const layers = [previous, current].filter((id): id is string => !!id && byId.has(id));
  return (
    <div className={classes.root} style={{ background: settings.backgroundColor }} data-testid="slideshow">
      <div className={classes.gallery}>
        <div className={classes.stage}>
          {layers.map((id) => (
            <div
              key={id}
              // The new slide fades in over the previous one (the crossfade).
              className={id === current ? classes.current : classes.layer}
              data-testid={id === current ? 'slide-current' : 'slide-previous'}
              data-id={id}
              style={{
                animationDuration: `${settings.transitionDuration}ms`,
                animationTimingFunction: settings.animation,
              }}
            >
              <Media uri={byId.get(id)!.sharedURI} className={classes.media} />
            </div>
          ))}
        </div>
        <div className={classes.thumbs} ref={thumbs} data-testid="slideshow-thumbs">
          {slides.map((s) => (
            <div key={s._id} className={classes.thumb} data-active={s._id === current}>
              {isVideo(s.smallURI) ? (
                <video src={s.smallURI} muted preload="none" className={classes.thumbMedia} />
              ) : (
                <img src={s.smallURI} alt="" loading="lazy" decoding="async" className={classes.thumbMedia} />
              )}
            </div>
          ))}
        </div>
      </div>
      {settings.slideshowBannerUrl ? (
        <img className={classes.banner} src={settings.slideshowBannerUrl} alt="" data-testid="slideshow-banner" />
      ) : null}
    </div>
  );
}
