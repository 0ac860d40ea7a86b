import { memo, useLayoutEffect, useMemo, useRef } from 'react';
import { ActionIcon, Badge, Box, Card, Checkbox, Group, Image, Menu, Text, UnstyledButton } from '@mantine/core';
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
  selected: boolean;
  showOverlays: boolean;
  can: TileAbilities;
};

export const isVideo = (s: { mediaType: string; rawCroppedURI: string }) =>
  s.mediaType.startsWith('video') || s.rawCroppedURI.endsWith('.mp4');

/** One album photo with its moderation controls (spec 1 §2 Album page). */
export const SnapshotTile = memo(function SnapshotTile({
  snapshot: s,
  index,
  selected,
  showOverlays,
  can,
  ...on
}: Props) {
  const shares = s.postObj.length;
  // Every share record counts as a share; only 'Share' records are posts on social media.
  const posts = s.postObj.filter((p) => p.socialSource === 'Share').length;
  const src = (showOverlays && s.sharedURI) || s.thumbURI || s.smallURI;
  const label = `${s.section || '-'} · ${s.row || '-'} · ${s.seat || '-'}`;
  return (
    <Card
      withBorder
      padding={0}
      radius="md"
      data-testid="snapshot-tile"
      data-id={s._id}
      data-selected={selected || undefined}
      data-favorite={s.favorite || undefined}
      data-hidden={s.hidden || undefined}
      style={{
        outline: selected ? '2px solid var(--mantine-primary-color-filled)' : undefined,
        overflow: 'hidden',
      }}
    >
      <Box pos="relative">
        <UnstyledButton onClick={() => on.onOpen(s)} aria-label={`Open photo ${label}`} display="block" w="100%">
          <Image
            src={src}
            alt={`Photo of ${s.userId} at ${label}`}
            h={150}
            fit="cover"
            loading="lazy"
            fallbackSrc="data:image/svg+xml;utf8,<svg xmlns='http://www.w3.org/2000/svg' width='4' height='3'><rect width='4' height='3' fill='%23333'/></svg>"
            style={{ filter: s.hidden ? 'grayscale(1) brightness(0.45)' : undefined }}
          />
        </UnstyledButton>
        {can.select && (
          <Checkbox
            aria-label="Select photo"
            checked={selected}
            onChange={() => on.onToggleSelect(index)}
            pos="absolute"
            top={8}
            left={8}
            size="md"
            styles={{ input: { cursor: 'pointer', boxShadow: '0 0 0 1px rgba(0,0,0,.4)' } }}
          />
        )}
        <Group gap={4} pos="absolute" top={8} right={8}>
          {s.hidden && (
            <Badge color="red" size="sm" variant="filled">
              Banned
            </Badge>
          )}
          {s.magicshot && (
            <Badge color="grape" size="sm" variant="filled">
              Magicshot
            </Badge>
          )}
          <Box
            c="white"
            bg="rgba(0,0,0,.55)"
            style={{ borderRadius: 4, display: 'flex', padding: 2 }}
            title={isVideo(s) ? 'Video' : 'Image'}
            data-testid="media-type"
            data-media={isVideo(s) ? 'video' : 'image'}
          >
            {isVideo(s) ? <IconVideo size={16} /> : <IconPhoto size={16} />}
          </Box>
        </Group>
      </Box>
      {/* The whole seat caption on its own line: a box or suite name is long, and it is what an
          operator reads to find the fan (never cut by the action icons). */}
      <Text
        size="xs"
        c="dimmed"
        px={6}
        pt={4}
        lh={1.3}
        style={{ overflowWrap: 'anywhere' }}
        title={`Section ${s.section}, row ${s.row}, seat ${s.seat}`}
        data-testid="tile-caption"
      >
        {label}
      </Text>
      <Group justify="flex-end" px={4} pb={2} gap={0} wrap="nowrap">
        <Group gap={0} wrap="nowrap">
          {/* Native titles and one shared menu (TileMenu): a page has 100 tiles, and six
              tooltips and two menus each made every page change and favourite slow. */}
          <ActionIcon
            variant="subtle"
            color={s.favorite ? 'red' : 'gray'}
            size="sm"
            title={s.favorite ? 'Unfavourite' : 'Favourite'}
            aria-label={s.favorite ? 'Unfavourite' : 'Favourite'}
            aria-pressed={s.favorite}
            disabled={!can.favorite}
            onClick={() => on.onFavorite(s)}
          >
            {s.favorite ? <IconHeartFilled size={16} /> : <IconHeart size={16} />}
          </ActionIcon>
          <Group
            gap={1}
            c={shares ? 'teal' : 'dimmed'}
            px={2}
            wrap="nowrap"
            title={MSG.album.sharedTimes(shares)}
            data-testid="shared-count"
          >
            <IconShare size={14} />
            <Text size="xs">{shares}</Text>
          </Group>
          <Group
            gap={1}
            c="dimmed"
            px={2}
            wrap="nowrap"
            title={`${posts} social media post(s)`}
            data-testid="posts-count"
          >
            <IconMessageCircle size={14} />
            <Text size="xs">{posts}</Text>
          </Group>
          {can.ban && (
            <ActionIcon
              variant="subtle"
              color="gray"
              size="sm"
              aria-label="Ban menu"
              aria-haspopup="menu"
              onClick={(e) => on.onMenu(s, 'ban', e.currentTarget)}
            >
              <IconBan size={16} />
            </ActionIcon>
          )}
          {can.remove && (
            <ActionIcon
              variant="subtle"
              color="gray"
              size="sm"
              title="Delete"
              aria-label="Delete photo"
              onClick={() => on.onDelete(s)}
            >
              <IconTrash size={16} />
            </ActionIcon>
          )}
          <ActionIcon
            variant="subtle"
            color="gray"
            size="sm"
            aria-label="Download menu"
            aria-haspopup="menu"
            onClick={(e) => on.onMenu(s, 'download', e.currentTarget)}
          >
            <IconDownload size={16} />
          </ActionIcon>
        </Group>
      </Group>
    </Card>
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
