import { Fragment, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import {
  ActionIcon,
  Badge,
  Box,
  Center,
  Group,
  Loader,
  Modal,
  ScrollArea,
  Switch,
  Tabs,
  Text,
  Tooltip,
  UnstyledButton,
} from '@mantine/core';
import { useViewportSize } from '@mantine/hooks';
import {
  IconBan,
  IconChevronLeft,
  IconChevronRight,
  IconDownload,
  IconHeart,
  IconHeartFilled,
  IconPhoto,
  IconTrash,
  IconVideo,
  IconX,
} from '@tabler/icons-react';
import { MSG, P, type Snapshot, type SnapshotListItem } from '@stadiumcam/contract';
import { useCan } from '../auth/session.hooks.ts';
import { useSelectedEvents } from '../events/selection.store.ts';
import { LightboxInfo, type InfoCard } from './lightbox-info.tsx';
import { LightboxPhoto } from './lightbox-photo.tsx';
import {
  closeLightbox,
  setLightboxOverlays,
  setLightboxSnapshot,
  setLightboxTab,
  useLightbox,
  type LightboxTab,
} from './lightbox.store.ts';
import { ResizableBottom } from './resizable-bottom.tsx';
import { isVideo, useTileAbilities } from './snapshot-tile.tsx';
import { downloadFile } from './download.ts';
import { useModeration } from './moderation.hooks.tsx';
import { showShortcuts } from './album-keys.hooks.tsx';
import { localDay, localTime, shortTime } from './snapshot-time.ts';
import {
  stripPosition,
  useEventZones,
  useFacesData,
  useSnapshot,
  useStrip,
  type StripParams,
} from './snapshots.hooks.ts';
import { useLatest } from '../../ui/latest.hooks.ts';

const INFO_WIDTH = 340;
/** The moderation keys of the lightbox and ? for their list (the grid has the same ones, docs/album.md). */
const LIGHTBOX_KEYS: Record<string, 'favorite' | 'ban' | 'remove' | 'download' | 'help' | undefined> = {
  f: 'favorite',
  F: 'favorite',
  b: 'ban',
  B: 'ban',
  Delete: 'remove',
  d: 'download',
  D: 'download',
  '?': 'help',
};
/** Load the next page this many photos before the end of the strip. */
const PREFETCH_MARGIN = 5;

/** The lightbox (spec 1 §2), mounted once by the shell; the album and `/snapshot/:id` open it. */
export function Lightbox() {
  const state = useLightbox();
  return (
    <Modal
      opened={!!state}
      onClose={closeLightbox}
      fullScreen
      withCloseButton={false}
      padding={0}
      transitionProps={{ duration: 0 }}
      // The album gives focus back to the tile of the photo shown last (album.page.tsx).
      returnFocus={false}
      // The dialog's name: Mantine names a modal by its title, kept out of sight here.
      title="Photo viewer"
      styles={{ header: { display: 'none' }, body: { height: '100dvh', display: 'flex', flexDirection: 'column' } }}
    >
      {state && (
        <LightboxView
          snapshotId={state.snapshotId}
          slugDates={state.slugDates}
          tab={state.tab}
          overlays={state.overlays}
        />
      )}
    </Modal>
  );
}

type ViewProps = { snapshotId: string; slugDates: string[]; tab: LightboxTab; overlays: boolean };

function LightboxView({ snapshotId, slugDates, tab, overlays }: ViewProps) {
  const current = useSnapshot(snapshotId);
  const canMagic = useCan(P.MAGICSHOTS_READ);
  const zones = useEventZones();
  const { events } = useSelectedEvents();
  const { height: viewportHeight } = useViewportSize();
  const [cards, setCards] = useState<InfoCard[]>(['image']);

  // The strip is built around the photo shown when it opened or its tab changed.
  const [anchor, setAnchor] = useState<{ tab: LightboxTab; snapshot: Snapshot } | null>(null);
  if (current.data && (!anchor || anchor.tab !== tab)) setAnchor({ tab, snapshot: current.data });

  const stripParams: StripParams | null = anchor
    ? {
        anchor: anchor.snapshot,
        slugDates: slugDates.length ? slugDates : [anchor.snapshot.slugDate],
        userId: anchor.tab === 'user' ? anchor.snapshot.userId : undefined,
        type: canMagic ? 'all-with-magicshot' : 'all',
      }
    : null;
  const strip = useStrip(stripParams);
  const items = useMemo(() => strip.data?.pages.flatMap((p) => p.items) ?? [], [strip.data]);
  const index = items.findIndex((s) => s._id === snapshotId);
  const placed = stripPosition(strip.data?.pages, items, anchor?.snapshot._id, index);
  const shown: Snapshot | undefined = current.data ?? items[index];

  const zoneOf = (slugDate: string) =>
    zones.data?.get(slugDate)?.timezone ?? events.find((e) => e.slugDate === slugDate)?.timezone;

  const faces = useFacesData(snapshotId, cards.includes('vision'));

  const { fetchNextPage, fetchPreviousPage, hasNextPage, hasPreviousPage, isFetchingNextPage, isFetchingPreviousPage } =
    strip;
  useEffect(() => {
    if (index < 0) return;
    if (hasNextPage && !isFetchingNextPage && index >= items.length - PREFETCH_MARGIN) void fetchNextPage();
    if (hasPreviousPage && !isFetchingPreviousPage && index < PREFETCH_MARGIN) void fetchPreviousPage();
  }, [
    index,
    items.length,
    hasNextPage,
    hasPreviousPage,
    isFetchingNextPage,
    isFetchingPreviousPage,
    fetchNextPage,
    fetchPreviousPage,
  ]);

  const can = useTileAbilities();
  const { toggleFavorite, toggleBan, deletePhotos } = useModeration();
  const moderation = shown && {
    favorite: () => can.favorite && toggleFavorite([shown]),
    ban: () => can.ban && void toggleBan([shown]),
    // After a delete the strip moves on to the next photo (the previous one at the end), else closes.
    remove: () =>
      can.remove &&
      void deletePhotos([shown], () => {
        const next = items[index + 1] ?? items[index - 1];
        if (next) setLightboxSnapshot(next._id);
        else closeLightbox();
      }),
    download: () => downloadFile((overlays && shown.sharedURI) || shown.rawCroppedURI),
  };
  const moderationRef = useLatest(moderation);

  const step = (delta: number) => {
    const next = items[index + delta];
    if (next) setLightboxSnapshot(next._id);
  };

  // Capture phase: the arrows move photos even while focus sits on the tabs or a card header.
  useEffect(() => {
    const handleKey = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement | null;
      if (target?.closest('input, textarea, select, [contenteditable="true"], [role="slider"]')) return;
      // F favourite, B ban, Del delete, D download (the album's shortcuts, on the photo shown);
      // ? lists them, as in the grid.
      const action = e.ctrlKey || e.metaKey || e.altKey ? undefined : LIGHTBOX_KEYS[e.key];
      if (
        action &&
        moderationRef.current &&
        !(target?.closest('[role="dialog"]') && !target.closest('[data-testid="lightbox"]'))
      ) {
        e.preventDefault();
        e.stopPropagation();
        if (action === 'help') showShortcuts();
        else moderationRef.current[action]();
        return;
      }
      if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
      e.preventDefault();
      e.stopPropagation();
      const next = items[index + (e.key === 'ArrowLeft' ? -1 : 1)];
      if (next) setLightboxSnapshot(next._id);
    };
    window.addEventListener('keydown', handleKey, true);
    return () => window.removeEventListener('keydown', handleKey, true);
  }, [items, index, moderationRef]);

  const handleTab = (value: string | null) => {
    if (value === 'all' || value === 'user') setLightboxTab(value);
  };

  const tz = shown ? zoneOf(shown.slugDate) : undefined;
  const src = shown ? (overlays && shown.sharedURI) || shown.rawCroppedURI || shown.smallURI : '';

  return (
    <Box
      h="100%"
      style={{ display: 'flex', flexDirection: 'column', minHeight: 0, outline: 'none' }}
      data-testid="lightbox"
      tabIndex={-1}
      data-autofocus
    >
      <Group
        justify="space-between"
        px="md"
        py={6}
        wrap="nowrap"
        style={{ borderBottom: '1px solid var(--mantine-color-default-border)', flex: 'none' }}
      >
        <Tabs value={tab} onChange={handleTab} variant="pills" radius="xl">
          <Tabs.List>
            <Tabs.Tab value="all">{MSG.album.allPhotos}</Tabs.Tab>
            <Tabs.Tab value="user" disabled={!shown}>
              User{shown ? `: ${shown.userId}` : ''}
            </Tabs.Tab>
          </Tabs.List>
        </Tabs>
        <Group gap="md" wrap="nowrap">
          {shown && moderation && (
            <Group gap={4} wrap="nowrap" data-testid="lightbox-actions">
              {can.favorite && (
                <Tooltip label={shown.favorite ? 'Unfavourite (F)' : 'Favourite (F)'}>
                  <ActionIcon
                    variant={shown.favorite ? 'filled' : 'subtle'}
                    color="red"
                    size="lg"
                    aria-label="Favourite"
                    aria-pressed={shown.favorite}
                    onClick={moderation.favorite}
                  >
                    {shown.favorite ? <IconHeartFilled size={20} /> : <IconHeart size={20} />}
                  </ActionIcon>
                </Tooltip>
              )}
              {can.ban && (
                <Tooltip label={shown.hidden ? 'Unban Photo (B)' : 'Ban Photo (B)'}>
                  <ActionIcon
                    variant={shown.hidden ? 'filled' : 'subtle'}
                    color="orange"
                    size="lg"
                    aria-label={shown.hidden ? 'Unban Photo' : 'Ban Photo'}
                    aria-pressed={shown.hidden}
                    onClick={moderation.ban}
                  >
                    <IconBan size={20} />
                  </ActionIcon>
                </Tooltip>
              )}
              <Tooltip label="Download (D)">
                <ActionIcon variant="subtle" color="gray" size="lg" aria-label="Download" onClick={moderation.download}>
                  <IconDownload size={20} />
                </ActionIcon>
              </Tooltip>
              {can.remove && (
                <Tooltip label="Delete (Del)">
                  <ActionIcon variant="subtle" color="red" size="lg" aria-label="Delete" onClick={moderation.remove}>
                    <IconTrash size={20} />
                  </ActionIcon>
                </Tooltip>
              )}
            </Group>
          )}
          <Switch
            label={MSG.album.showOverlays}
            size="sm"
            checked={overlays}
            onChange={(e) => setLightboxOverlays(e.currentTarget.checked)}
          />
          <Tooltip label="Close (Esc)">
            <ActionIcon variant="subtle" color="gray" size="lg" aria-label="Close" onClick={closeLightbox}>
              <IconX size={22} />
            </ActionIcon>
          </Tooltip>
        </Group>
      </Group>

      <Box style={{ flex: 1, minHeight: 0, display: 'flex' }}>
        <Box
          // Always dark around the photo: its texts take the dark scheme's colours (app/a11y.css).
          className="sc-always-dark"
          style={{
            flex: 1,
            minWidth: 0,
            display: 'flex',
            flexDirection: 'column',
            background: 'var(--mantine-color-dark-9)',
          }}
        >
          {current.isError ? (
            <Center style={{ flex: 1 }}>
              <Text c="red" data-testid="lightbox-error">
                {MSG.album.snapshotLoadFailed}
              </Text>
            </Center>
          ) : !shown ? (
            <Center style={{ flex: 1 }}>
              <Loader />
            </Center>
          ) : (
            <Box pos="relative" style={{ flex: 1, minHeight: 0, display: 'flex' }}>
              <LightboxPhoto
                src={src}
                video={isVideo(shown)}
                faces={cards.includes('vision') ? faces.data : undefined}
              />
              <NavButton side="left" disabled={index <= 0} onClick={() => step(-1)} />
              <NavButton side="right" disabled={index < 0 || index >= items.length - 1} onClick={() => step(1)} />
            </Box>
          )}
          {shown && (
            <Group
              gap="lg"
              px="md"
              py={6}
              wrap="nowrap"
              style={{ flex: 'none', borderTop: '1px solid var(--mantine-color-dark-5)' }}
              data-testid="lightbox-description"
            >
              <Text size="sm" ff="monospace" data-testid="lightbox-time">
                {localTime(shown.date, tz)}
              </Text>
              <Group gap={4} wrap="nowrap">
                {isVideo(shown) ? <IconVideo size={16} /> : <IconPhoto size={16} />}
                <Text size="sm">{isVideo(shown) ? 'Video' : 'Image'}</Text>
              </Group>
              <Text size="sm" data-testid="lightbox-seat">
                {MSG.album.seatWords(shown)}
              </Text>
              {shown.hidden && (
                // As on its album tile: a banned photo says so where the operator looks.
                <Badge color="red.9" variant="filled" data-testid="lightbox-banned">
                  {MSG.album.banned}
                </Badge>
              )}
              <Text size="sm" c="dimmed" ml="auto" data-testid="lightbox-position">
                {placed
                  ? `${placed.position} of ${placed.total}`
                  : index >= 0
                    ? `${index + 1} of ${items.length}${strip.hasNextPage ? '+' : ''}`
                    : ''}
              </Text>
            </Group>
          )}
        </Box>
        <ScrollArea
          w={INFO_WIDTH}
          style={{ flex: 'none', borderLeft: '1px solid var(--mantine-color-default-border)' }}
          p="sm"
          data-testid="lightbox-info"
        >
          {shown && (
            <LightboxInfo
              snapshot={shown}
              timezone={tz ?? 'UTC'}
              eventTitle={zones.data?.get(shown.slugDate)?.title}
              open={cards}
              onOpenChange={setCards}
              faces={faces}
              onShowUser={() => setLightboxTab('user')}
            />
          )}
        </ScrollArea>
      </Box>

      <ResizableBottom maxHeight={Math.round(viewportHeight * 0.6)}>
        <Strip
          items={items}
          currentId={snapshotId}
          zoneOf={zoneOf}
          loading={strip.isPending || !anchor}
          emptyText={tab === 'user' ? MSG.album.userHasNoPhotos : MSG.album.noMedia}
          hasNext={!!strip.hasNextPage}
          hasPrevious={!!strip.hasPreviousPage}
          onNeedNext={() => void fetchNextPage()}
          onNeedPrevious={() => void fetchPreviousPage()}
        />
      </ResizableBottom>
    </Box>
  );
}

function NavButton({ side, disabled, onClick }: { side: 'left' | 'right'; disabled: boolean; onClick: () => void }) {
  return (
    <ActionIcon
      variant="filled"
      color="dark"
      radius="xl"
      size="xl"
      pos="absolute"
      top="50%"
      style={{ [side]: 16, transform: 'translateY(-50%)', opacity: disabled ? 0 : 0.85 }}
      aria-label={side === 'left' ? 'Previous photo' : 'Next photo'}
      disabled={disabled}
      onClick={onClick}
    >
      {side === 'left' ? <IconChevronLeft /> : <IconChevronRight />}
    </ActionIcon>
  );
}

type StripProps = {
  items: SnapshotListItem[];
  currentId: string;
  zoneOf: (slugDate: string) => string | undefined;
  loading: boolean;
  emptyText: string;
  hasNext: boolean;
  hasPrevious: boolean;
  onNeedNext: () => void;
  onNeedPrevious: () => void;
};

/** The horizontal strip: day labels where the day changes, more photos loaded at both ends. */
function Strip({
  items,
  currentId,
  zoneOf,
  loading,
  emptyText,
  hasNext,
  hasPrevious,
  onNeedNext,
  onNeedPrevious,
}: StripProps) {
  const viewport = useRef<HTMLDivElement>(null);
  const before = useRef<{ firstId?: string; width: number }>({ width: 0 });

  // Photos prepended at the left would push the view; keep what the operator looks at in place.
  const firstId = items[0]?._id;
  useLayoutEffect(() => {
    const el = viewport.current;
    if (!el) return;
    const prev = before.current;
    if (prev.firstId && firstId !== prev.firstId && items.some((s) => s._id === prev.firstId)) {
      el.scrollLeft += el.scrollWidth - prev.width;
    }
    before.current = { firstId, width: el.scrollWidth };
  }, [firstId, items]);

  useEffect(() => {
    viewport.current
      ?.querySelector(`[data-strip-id="${CSS.escape(currentId)}"]`)
      ?.scrollIntoView({ inline: 'center', block: 'nearest', behavior: 'smooth' });
  }, [currentId, items.length]);

  const handleScroll = () => {
    const el = viewport.current;
    if (!el) return;
    if (hasNext && el.scrollLeft + el.clientWidth > el.scrollWidth - 300) onNeedNext();
    if (hasPrevious && el.scrollLeft < 300) onNeedPrevious();
  };

  if (loading)
    return (
      <Center h="100%">
        <Loader size="sm" />
      </Center>
    );
  if (!items.length)
    return (
      <Center h="100%">
        <Text c="dimmed" data-testid="strip-empty">
          {emptyText}
        </Text>
      </Center>
    );

  const days = items.map((s) => localDay(s.date, zoneOf(s.slugDate)));
  return (
    <Box
      ref={viewport}
      onScroll={handleScroll}
      h="100%"
      px="sm"
      py="xs"
      style={{ overflowX: 'auto', overflowY: 'hidden', display: 'flex', gap: 8, alignItems: 'stretch' }}
      data-testid="lightbox-strip"
    >
      {items.map((s, i) => {
        const tz = zoneOf(s.slugDate);
        const label = i === 0 || days[i] !== days[i - 1] ? days[i] : null;
        const active = s._id === currentId;
        return (
          <Fragment key={s._id}>
            {label && (
              <Box
                data-testid="strip-day"
                style={{
                  flex: 'none',
                  writingMode: 'vertical-rl',
                  transform: 'rotate(180deg)',
                  textAlign: 'center',
                  borderLeft: '2px solid var(--mantine-primary-color-filled)',
                  paddingLeft: 4,
                }}
              >
                <Text size="xs" fw={700} c="dimmed">
                  {label}
                </Text>
              </Box>
            )}
            <UnstyledButton
              data-strip-id={s._id}
              data-active={active || undefined}
              onClick={() => setLightboxSnapshot(s._id)}
              aria-label={`Photo ${shortTime(s.date, tz)}`}
              aria-current={active || undefined}
              style={{
                flex: 'none',
                height: '100%',
                aspectRatio: '4 / 3',
                display: 'flex',
                flexDirection: 'column',
                borderRadius: 6,
                overflow: 'hidden',
                outline: active
                  ? '3px solid var(--mantine-primary-color-filled)'
                  : '1px solid var(--mantine-color-dark-4)',
                outlineOffset: active ? -3 : -1,
                opacity: s.hidden ? 0.45 : 1,
              }}
            >
              <img
                src={s.thumbURI || s.smallURI}
                alt=""
                loading="lazy"
                style={{ flex: 1, minHeight: 0, width: '100%', objectFit: 'cover', display: 'block' }}
              />
              {/* A dark caption in both schemes: dark-scheme text (app/a11y.css). */}
              <Text size="xs" ta="center" bg="dark.7" py={2} className="sc-always-dark">
                {shortTime(s.date, tz)}
              </Text>
            </UnstyledButton>
          </Fragment>
        );
      })}
      {hasNext && (
        <Center style={{ flex: 'none' }} w={60}>
          <Loader size="xs" />
        </Center>
      )}
    </Box>
  );
}
