import { useCallback, useEffect, useMemo, useState } from 'react';
import {
  Alert,
  Badge,
  Box,
  Center,
  Group,
  Loader,
  Pagination,
  Paper,
  ScrollArea,
  Stack,
  Switch,
  Tabs,
  Text,
  Title,
} from '@mantine/core';
import { IconAlertTriangle, IconPhotoOff } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { ALBUM_PAGE_SIZE, P, type AlbumStats, type SnapshotListItem } from '@stadiumcam/contract';
import { useCan } from '../auth/session.hooks.ts';
import { EventSelector } from '../events/event-selector.tsx';
import { useSelectedEvents } from '../events/selection.store.ts';
import { ALBUM_MSG } from './album.messages.ts';
import { EMPTY_FILTER, type AlbumFilter } from './album-filter.ts';
import { AlbumFilters } from './album-filters.tsx';
import { AlbumToolbar } from './album-toolbar.tsx';
import { openLightbox } from './lightbox.store.ts';
import { SnapshotTile, type TileAbilities } from './snapshot-tile.tsx';
import { snapshotKeys, useAlbumList, useAlbumStats, useFilterOptions, type AlbumTab } from './snapshots.hooks.ts';
import { useAlbumLive } from './use-album-live.ts';
import { useModeration } from './use-moderation.tsx';
import { useSelection } from './use-selection.ts';

const TABS: { value: AlbumTab; label: string; stat: keyof AlbumStats }[] = [
  { value: 'all', label: 'All Photos', stat: 'all' },
  { value: 'shared', label: 'Shared', stat: 'shared' },
  { value: 'favorites', label: 'Favorites', stat: 'favorite' },
  { value: 'magicshots', label: 'Magicshots', stat: 'magicshots' },
];

/** Spec 1 §9: 5 pages shown (the active one ±2) and 2 at each end. */
const PAGE_SIBLINGS = 2;
const PAGE_BOUNDARIES = 2;

/** Anchor-click download of one file (same origin, so the name comes from the URL). */
function downloadFile(url: string) {
  const a = document.createElement('a');
  a.href = url;
  a.download = url.split('/').pop() ?? 'photo';
  document.body.appendChild(a);
  a.click();
  a.remove();
}

function Message({ children, color }: { children: string; color?: string }) {
  return (
    <Center h="100%" mih={240}>
      <Stack align="center" gap="xs">
        <IconPhotoOff size={40} stroke={1.2} color="var(--mantine-color-dimmed)" />
        <Text c={color ?? 'dimmed'} size="lg" data-testid="album-message">
          {children}
        </Text>
      </Stack>
    </Center>
  );
}

/** The album (spec 1 §2): the whole viewport below the header, filters on the right. */
export function AlbumPage() {
  const qc = useQueryClient();
  const { events, slugDates } = useSelectedEvents();
  const canMagic = useCan(P.MAGICSHOTS_READ);
  const can: TileAbilities = {
    select: useCan([P.SELECT_PHOTO, P.PHOTOS_WRITE], { or: true }),
    favorite: useCan(P.PHOTOS_WRITE),
    ban: useCan([P.BAN_PHOTO_USER, P.PHOTOS_WRITE], { or: true }),
    remove: useCan([P.DELETE_PHOTO, P.PHOTOS_WRITE], { or: true }),
  };
  const [tab, setTab] = useState<AlbumTab>('all');
  const [page, setPage] = useState(1);
  const [filter, setFilter] = useState<AlbumFilter>(EMPTY_FILTER);
  const [showOverlays, setShowOverlays] = useState(false);
  const [autoRefresh, setAutoRefresh] = useState(true);
  const selection = useSelection();
  const { toggleFavorite, toggleBan, toggleBanUser, deletePhotos } = useModeration();

  // Another event selection starts the album over.
  const selectionKey = slugDates.join(',');
  const [shownFor, setShownFor] = useState(selectionKey);
  if (shownFor !== selectionKey) {
    setShownFor(selectionKey);
    setPage(1);
    setFilter(EMPTY_FILTER);
  }

  const params = { slugDates, tab, page, filter };
  const list = useAlbumList(params);
  const stats = useAlbumStats(slugDates, filter);
  const options = useFilterOptions(slugDates);
  useAlbumLive({ ...params, autoRefresh });

  const items = useMemo(() => list.data?.items ?? [], [list.data]);
  const ids = useMemo(() => items.map((s) => s._id), [items]);
  const { keepOnly, clear, selectAll, toggle } = selection;
  useEffect(() => keepOnly(ids), [ids, keepOnly]);

  const tabStat = TABS.find((t) => t.value === tab)!.stat;
  const total = stats.data ? Math.max(1, Math.ceil(stats.data[tabStat] / ALBUM_PAGE_SIZE)) : 1;

  const handleTab = (value: string | null) => {
    if (!value) return;
    setTab(value as AlbumTab);
    setPage(1);
    clear();
  };
  const handleFilter = (next: AlbumFilter) => {
    setFilter(next);
    setPage(1);
    clear();
  };
  const handlePage = (p: number) => {
    setPage(p);
    clear();
  };
  const handleAutoRefresh = (on: boolean) => {
    setAutoRefresh(on);
    if (on) void qc.invalidateQueries({ queryKey: snapshotKeys.all });
  };

  const handleToggleSelect = useCallback((index: number) => toggle(index, ids), [toggle, ids]);
  const handleOpen = useCallback(
    (s: SnapshotListItem) => openLightbox(s._id, slugDates, showOverlays),
    [slugDates, showOverlays],
  );
  const handleFavorite = useCallback((s: SnapshotListItem) => toggleFavorite([s]), [toggleFavorite]);
  const handleBanPhoto = useCallback((s: SnapshotListItem) => void toggleBan([s]), [toggleBan]);
  const handleBanUser = useCallback((s: SnapshotListItem) => void toggleBanUser(s), [toggleBanUser]);
  const handleDelete = useCallback((s: SnapshotListItem) => void deletePhotos([s]), [deletePhotos]);
  const handleDownload = useCallback(
    (s: SnapshotListItem, type: 'rawCroppedURI' | 'sharedURI') => downloadFile(s[type] || s.rawCroppedURI),
    [],
  );

  let body;
  if (!slugDates.length) body = <Message>{ALBUM_MSG.selectEvent}</Message>;
  else if (list.isError) body = <Message color="red">{ALBUM_MSG.fetchFailed}</Message>;
  else if (list.isPending)
    body = (
      <Center h="100%" mih={240}>
        <Loader />
      </Center>
    );
  else if (!items.length) body = <Message>{ALBUM_MSG.noMedia}</Message>;
  else
    body = (
      <Box
        data-testid="album-grid"
        style={{
          display: 'grid',
          gridTemplateColumns: 'repeat(auto-fill, minmax(190px, 1fr))',
          gap: 'var(--mantine-spacing-sm)',
          opacity: list.isPlaceholderData ? 0.6 : 1,
        }}
      >
        {items.map((s, i) => (
          <SnapshotTile
            key={s._id}
            snapshot={s}
            index={i}
            selected={selection.selected.has(s._id)}
            showOverlays={showOverlays}
            can={can}
            onToggleSelect={handleToggleSelect}
            onOpen={handleOpen}
            onFavorite={handleFavorite}
            onBanPhoto={handleBanPhoto}
            onBanUser={handleBanUser}
            onDelete={handleDelete}
            onDownload={handleDownload}
          />
        ))}
      </Box>
    );

  return (
    <Group
      align="stretch"
      gap="md"
      wrap="nowrap"
      h="calc(100dvh - var(--app-shell-header-height, 56px) - 2 * var(--mantine-spacing-md))"
      data-testid="album-page"
    >
      <Stack gap="sm" style={{ flex: 1, minWidth: 0 }}>
        <Group justify="space-between" wrap="wrap" gap="sm">
          <Group gap="md" wrap="nowrap">
            <Title order={2}>Album</Title>
            <EventSelector multiple />
          </Group>
          <Group gap="lg">
            <Switch
              label="Show Overlays"
              checked={showOverlays}
              onChange={(e) => setShowOverlays(e.currentTarget.checked)}
            />
            <Switch
              label="Auto Refresh"
              checked={autoRefresh}
              onChange={(e) => handleAutoRefresh(e.currentTarget.checked)}
            />
          </Group>
        </Group>
        <Tabs value={tab} onChange={handleTab}>
          <Tabs.List>
            {TABS.filter((t) => t.value !== 'magicshots' || canMagic).map((t) => (
              <Tabs.Tab
                key={t.value}
                value={t.value}
                rightSection={
                  <Badge size="sm" variant="light" color="gray" data-testid={`count-${t.value}`}>
                    {stats.data?.[t.stat] ?? '–'}
                  </Badge>
                }
              >
                {t.label}
              </Tabs.Tab>
            ))}
          </Tabs.List>
        </Tabs>
        {stats.isError && (
          <Alert color="red" icon={<IconAlertTriangle size={16} />} p="xs">
            {ALBUM_MSG.statsFailed}
          </Alert>
        )}
        <AlbumToolbar
          items={items}
          selected={selection.selected}
          onSelectAll={() => selectAll(ids)}
          onClear={clear}
          can={can}
          slugDates={slugDates}
          anyLive={events.some((e) => e.eventStatus === 'live')}
        />
        <ScrollArea style={{ flex: 1 }} type="auto" offsetScrollbars>
          {body}
        </ScrollArea>
        {total >= 2 && (
          <Group justify="center">
            <Pagination
              total={total}
              value={Math.min(page, total)}
              onChange={handlePage}
              siblings={PAGE_SIBLINGS}
              boundaries={PAGE_BOUNDARIES}
              size="sm"
            />
          </Group>
        )}
      </Stack>
      <Paper withBorder w={280} style={{ flex: 'none', overflow: 'hidden' }}>
        <AlbumFilters
          filter={filter}
          onChange={handleFilter}
          options={options.data}
          loading={options.isPending && slugDates.length > 0}
          error={options.isError}
        />
      </Paper>
    </Group>
  );
}
