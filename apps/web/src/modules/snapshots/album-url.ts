import { useEffect, useMemo, useRef } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { EMPTY_FILTER, type AlbumFilter } from './album-filter.ts';
import { closeLightbox, openLightbox, useLightbox } from './lightbox.store.ts';
import type { AlbumTab } from './snapshots.hooks.ts';

const TABS: AlbumTab[] = ['all', 'shared', 'favorites', 'magicshots'];

/** The album showing one attendee's photos of one event (a notification card links there). */
export const albumOfUser = (slugDate: string, userId: string) =>
  `/album?${new URLSearchParams({ events: slugDate, filter: JSON.stringify({ userId: [userId] }) })}`;

/** Only the fields that differ from "no filter" travel in `?filter=`; anything unknown is dropped. */
function parseFilter(raw: string | null): AlbumFilter {
  if (!raw) return EMPTY_FILTER;
  try {
    const parsed = JSON.parse(raw) as Record<string, unknown>;
    const f = { ...EMPTY_FILTER } as Record<string, unknown>;
    for (const [k, v] of Object.entries(parsed)) {
      const base = (EMPTY_FILTER as Record<string, unknown>)[k];
      if (base !== undefined && typeof v === typeof base && Array.isArray(v) === Array.isArray(base)) f[k] = v;
    }
    return f as AlbumFilter;
  } catch {
    return EMPTY_FILTER;
  }
}

function filterParam(f: AlbumFilter): string | null {
  const diff = Object.fromEntries(
    Object.entries(f).filter(
      ([k, v]) => JSON.stringify(v) !== JSON.stringify((EMPTY_FILTER as Record<string, unknown>)[k]),
    ),
  );
  return Object.keys(diff).length ? JSON.stringify(diff) : null;
}

/**
 * The album's state in its URL (DESIGN §6): `?tab=&page=&filter=&events=&photo=`. Tab, page and
 * filter replace the entry (Back leaves the album); opening a photo pushes one, so Back closes
 * the lightbox and a copied link reopens it on the same album page.
 */
export function useAlbumUrl(slugDates: string[]) {
  const [params, setParams] = useSearchParams();
  const tabParam = params.get('tab') as AlbumTab | null;
  const tab: AlbumTab = tabParam && TABS.includes(tabParam) ? tabParam : 'all';
  const page = Math.max(1, Math.floor(Number(params.get('page')) || 1));
  const filterRaw = params.get('filter');
  // The same object while `?filter=` is unchanged: query keys and effects depend on it.
  const filter = useMemo(() => parseFilter(filterRaw), [filterRaw]);
  const photo = params.get('photo');

  const update = (changes: Record<string, string | null>, push = false) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        for (const [k, v] of Object.entries(changes)) {
          if (v === null) next.delete(k);
          else next.set(k, v);
        }
        return next;
      },
      { replace: !push },
    );

  // The selected events travel too, so a copied link shows the same album.
  const events = slugDates.join(',');
  useEffect(() => {
    if (events && params.get('events') !== events) update({ events });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only when the selection changes
  }, [events]);

  return {
    tab,
    page,
    filter,
    photo,
    /** Tab and filter changes go back to page 1 (spec 1 §4). */
    setTab: (t: AlbumTab) => update({ tab: t === 'all' ? null : t, page: null }),
    setPage: (p: number) => update({ page: p === 1 ? null : String(p) }),
    setFilter: (f: AlbumFilter) => update({ filter: filterParam(f), page: null }),
    openPhoto: (id: string) => update({ photo: id }, true),
    update,
  };
}

/**
 * The lightbox as a part of the album's URL: `?photo=` opens it, moving to another photo
 * replaces it, closing it goes Back when the album pushed it (else drops it from the URL).
 */
export function useLightboxRoute(url: ReturnType<typeof useAlbumUrl>, slugDates: string[], showOverlays: boolean) {
  const lightbox = useLightbox();
  const navigate = useNavigate();
  const pushed = useRef(false);
  const { photo, update } = url;
  const shownId = lightbox?.snapshotId ?? null;

  // Photos this lightbox wrote to the URL. Router updates land late: when the operator steps
  // through photos quickly, the URL may still show one of them after the lightbox moved on, and
  // following it back would undo the steps (seen in the album's browser test).
  const written = useRef(new Set<string>());

  // URL → lightbox: a link with ?photo= (or Forward) opens it, Back closes it.
  useEffect(() => {
    if (photo && written.current.has(photo)) {
      if (photo === shownId) written.current.clear();
      return;
    }
    if (photo && photo !== shownId) openLightbox(photo, slugDates, showOverlays);
    if (!photo && shownId) {
      pushed.current = false;
      closeLightbox();
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only when the URL's photo changes
  }, [photo]);

  // Lightbox → URL: another photo replaces the entry; closing leaves it.
  const previous = useRef(shownId);
  useEffect(() => {
    const was = previous.current;
    previous.current = shownId;
    if (!shownId) written.current.clear();
    if (shownId && shownId !== photo) {
      written.current.add(shownId);
      update({ photo: shownId });
    } else if (!shownId && was && photo) {
      if (pushed.current) void navigate(-1);
      else update({ photo: null });
      pushed.current = false;
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only when the lightbox's photo changes
  }, [shownId]);

  return (id: string) => {
    pushed.current = true;
    url.openPhoto(id);
  };
}
