import { Fragment, memo, useLayoutEffect, useMemo, useRef, type ReactNode, type SyntheticEvent } from 'react';
import { Menu } from '@mantine/core';
import {
  IconBan,
  IconDownload,
  IconHeart,
  IconHeartFilled,
  IconMessageCircle,
  IconPhoto,
  IconShare,
  IconTrash,
  IconUserOff,
  IconVideo,
} from '@tabler/icons-react';
import { MSG, P, type SnapshotListItem } from '@stadiumcam/contract';
import { useCan } from '../auth/session.hooks.ts';
import classes from './snapshot-tile.module.css';

export type TileAbilities = { select: boolean; favorite: boolean; ban: boolean; remove: boolean };

/**
 * The album's gates (docs/album.md), shared by tiles, toolbar, lightbox and shortcuts. One
 * object while the gates hold: a new one each render made every memoised tile render again.
 */
export function useTileAbilities(): TileAbilities {
  const select = useCan([P.SELECT_PHOTO, P.PHOTOS_WRITE], { or: true });
  const favorite = useCan(P.PHOTOS_WRITE);
  const ban = useCan([P.BAN_PHOTO_USER, P.PHOTOS_WRITE], { or: true });
  const remove = useCan([P.DELETE_PHOTO, P.PHOTOS_WRITE], { or: true });
  return useMemo(() => ({ select, favorite, ban, remove }), [select, favorite, ban, remove]);
}

export type TileActions = {
  onToggleSelect: (index: number) => void;
  onOpen: (snapshot: SnapshotListItem) => void;
  onFavorite: (snapshot: SnapshotListItem) => void;
  onBanPhoto: (snapshot: SnapshotListItem) => void;
  onBanUser: (snapshot: SnapshotListItem) => void;
  onDelete: (snapshot: SnapshotListItem) => void;
  onDownload: (snapshot: SnapshotListItem, type: 'rawCroppedURI' | 'sharedURI') => void;
  /** Opens the page's one shared menu (TileMenu) for this tile's ban or download button. */
  onMenu: (snapshot: SnapshotListItem, kind: TileMenuKind, anchor: HTMLElement) => void;
};

export type TileMenuKind = 'ban' | 'download';
export type TileMenuState = { snapshot: SnapshotListItem; kind: TileMenuKind; anchor: HTMLElement } | null;

type Props = TileActions & {
  snapshot: SnapshotListItem;
  index: number;
  /** Its column in the grid's row (aria-colindex). */
  column: number;
  selected: boolean;
  /** The grid's one Tab stop (roving tabindex). */
  tabStop: boolean;
  /** Tab reaches its buttons (the grid's F2); otherwise only the arrow keys reach the tile. */
  inside: boolean;
  showOverlays: boolean;
  can: TileAbilities;
};

export const isVideo = (s: { mediaType: string; rawCroppedURI: string }) =>
  s.mediaType.startsWith('video') || s.rawCroppedURI.endsWith('.mp4');

const FALLBACK =
  "data:image/svg+xml;utf8,<svg xmlns='http://www.w3.org/2000/svg' width='4' height='3'><rect width='4' height='3' fill='%23333'/></svg>";
/** A missing thumbnail shows a dark box, once (the fallback cannot fail). */
const onImageError = (e: SyntheticEvent<HTMLImageElement>) => {
  if (e.currentTarget.src !== FALLBACK) e.currentTarget.src = FALLBACK;
};

/**
 * One album photo with its moderation controls (spec 1 §2 Album page). Plain elements styled by
 * snapshot-tile.module.css: a page mounts 100 tiles, and Mantine components made each page
 * change and tab switch block the browser for half a second (docs/album.md).
 */
export const SnapshotTile = memo(function SnapshotTile({
  snapshot: s,
  index,
  column,
  selected,
  tabStop,
  inside,
  showOverlays,
  can,
  ...on
}: Props) {
  const shares = s.postObj.length;
  // Every share record counts as a share; only 'Share' records are posts on social media.
  const posts = s.postObj.filter((p) => p.socialSource === 'Share').length;
  const src = (showOverlays && s.sharedURI) || s.thumbURI || s.smallURI || FALLBACK;
  const caption = MSG.album.seatCaption(s);
  const seatWords = MSG.album.seatWords(s);
  const video = isVideo(s);
  /** Only the grid's arrow keys reach a tile's controls, until F2 opens the tile to Tab. */
  const tab = inside ? 0 : -1;
  // Ids per photo for its parts (a screen reader reads the cell by its content).
  const idBase = `tile-${s._id}`;
  /** A button opening the page's one menu (TileMenu) for this photo. */
  const menuButton = (kind: TileMenuKind, label: string, icon: ReactNode) => (
    <button
      type="button"
      className={classes.action}
      aria-label={label}
      aria-haspopup="menu"
      tabIndex={tab}
      onClick={(e) => on.onMenu(s, kind, e.currentTarget)}
    >
      {icon}
    </button>
  );
  return (
    <div
      role="gridcell"
      tabIndex={tabStop ? 0 : -1}
      aria-colindex={column}
      aria-selected={can.select ? selected : undefined}
      className={classes.tile}
      data-testid="snapshot-tile"
      data-id={s._id}
      data-selected={selected || undefined}
      data-favorite={s.favorite || undefined}
      data-hidden={s.hidden || undefined}
    >
      <div className={classes.picture}>
        <button
          type="button"
          className={classes.open}
          tabIndex={tab}
          onClick={() => on.onOpen(s)}
          aria-label={`Open photo ${caption}`}
        >
          <img src={src} alt="" loading="lazy" onError={onImageError} />
        </button>
        {can.select && (
          <input
            type="checkbox"
            className={classes.select}
            aria-label="Select photo"
            tabIndex={tab}
            checked={selected}
            onChange={() => on.onToggleSelect(index)}
          />
        )}
        <div className={classes.badges}>
          <span id={`${idBase}-badges`}>
            {s.hidden && (
              <span className={classes.badge} style={{ background: 'var(--mantine-color-red-9)' }}>
                {MSG.album.banned}
              </span>
            )}
            {s.magicshot && (
              <span className={classes.badge} style={{ background: 'var(--mantine-color-grape-9)' }}>
                {MSG.album.magicshot}
              </span>
            )}
          </span>
          <span
            className={classes.media}
            title={video ? 'Video' : 'Image'}
            data-testid="media-type"
            data-media={video ? 'video' : 'image'}
          >
            {video ? <IconVideo size={16} aria-hidden /> : <IconPhoto size={16} aria-hidden />}
            <span id={`${idBase}-media`} hidden>
              {video ? 'Video' : 'Image'}
            </span>
          </span>
        </div>
      </div>
      {/* The whole seat caption on its own line: a box or suite name is long, and it is what an
          operator reads to find the fan (never cut by the action icons). */}
      <div className={classes.caption} title={seatWords} id={`${idBase}-caption`} data-testid="tile-caption">
        {/* Each label with its value ("Seat 13"): a line breaks between them, never inside. */}
        {caption.split(' · ').map((part, i, parts) => (
          <Fragment key={i}>
            <span className={classes.part}>{i < parts.length - 1 ? `${part} ·` : part}</span>
            {i < parts.length - 1 && ' '}
          </Fragment>
        ))}
      </div>
      {/* Each number says what it counts (issue 28 point 5). */}
      <div className={classes.stats} id={`${idBase}-stats`}>
        <span className={classes.count} data-on={shares ? '' : undefined} title={MSG.album.sharedTimes(shares)}>
          <IconShare size={14} aria-hidden />
          <span data-testid="shared-count">{shares}</span> {MSG.album.sharesCount(shares)}
        </span>
        <span className={classes.count} title={MSG.album.postsTitle(posts)}>
          <IconMessageCircle size={14} aria-hidden />
          <span data-testid="posts-count">{posts}</span> {MSG.album.postsCount(posts)}
        </span>
      </div>
      {/* Native titles and one shared menu (TileMenu) instead of tooltips and menus per tile. */}
      <div className={classes.actions}>
        <button
          type="button"
          className={classes.action}
          title={s.favorite ? 'Unfavourite' : 'Favourite'}
          aria-label={s.favorite ? 'Unfavourite' : 'Favourite'}
          aria-pressed={s.favorite}
          disabled={!can.favorite}
          tabIndex={tab}
          onClick={() => on.onFavorite(s)}
        >
          {s.favorite ? <IconHeartFilled size={16} /> : <IconHeart size={16} />}
        </button>
        <span className={classes.spacer} />
        {can.ban && menuButton('ban', 'Ban menu', <IconBan size={16} />)}
        {can.remove && (
          <button
            type="button"
            className={classes.action}
            title="Delete"
            aria-label="Delete photo"
            tabIndex={tab}
            onClick={() => on.onDelete(s)}
          >
            <IconTrash size={16} />
          </button>
        )}
        {menuButton('download', 'Download menu', <IconDownload size={16} />)}
      </div>
    </div>
  );
});

/**
 * The album's one tile menu (ban: Ban/Unban Photo, Ban/Unban User; download: Raw, Overlayed),
 * opened at the button that asked for it. The button gets aria-expanded while it is open: the
 * album reads that as "the operator is working on the grid" (new photos wait).
 */
export function TileMenu({
  state,
  onClose,
  onBanPhoto,
  onBanUser,
  onDownload,
}: { state: TileMenuState; onClose: () => void } & Pick<TileActions, 'onBanPhoto' | 'onBanUser' | 'onDownload'>) {
  const anchor = state?.anchor;
  const target = useRef<HTMLDivElement>(null);
  // Before the menu positions itself on its stand-in.
  useLayoutEffect(() => {
    if (!anchor) return;
    anchor.setAttribute('aria-expanded', 'true');
    // The menu's stand-in follows its button while the grid scrolls (closing on scroll closed
    // it at once when a scroll event of the click that opened it arrived a frame late).
    const follow = () => {
      const r = anchor.getBoundingClientRect();
      Object.assign(target.current?.style ?? {}, {
        left: `${r.left}px`,
        top: `${r.top}px`,
        width: `${r.width}px`,
        height: `${r.height}px`,
      });
    };
    follow();
    window.addEventListener('scroll', follow, true);
    return () => {
      anchor.removeAttribute('aria-expanded');
      window.removeEventListener('scroll', follow, true);
    };
  }, [anchor]);
  const s = state?.snapshot;
  return (
    <Menu opened={!!state} onChange={(open) => !open && onClose()} position="bottom-end" withinPortal>
      <Menu.Target>
        <div ref={target} aria-hidden style={{ position: 'fixed', pointerEvents: 'none' }} />
      </Menu.Target>
      <Menu.Dropdown>
        {s && state.kind === 'ban' && (
          <>
            <Menu.Item leftSection={<IconBan size={14} />} onClick={() => onBanPhoto(s)}>
              {s.hidden ? 'Unban Photo' : 'Ban Photo'}
            </Menu.Item>
            <Menu.Item leftSection={<IconUserOff size={14} />} onClick={() => onBanUser(s)}>
              {s.hidden ? 'Unban User' : 'Ban User'}
            </Menu.Item>
          </>
        )}
        {s && state.kind === 'download' && (
          <>
            <Menu.Item onClick={() => onDownload(s, 'rawCroppedURI')}>Raw</Menu.Item>
            <Menu.Item onClick={() => onDownload(s, 'sharedURI')}>Overlayed</Menu.Item>
          </>
        )}
      </Menu.Dropdown>
    </Menu>
  );
}
