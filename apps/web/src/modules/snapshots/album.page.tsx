import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import {
  Alert,
  Badge,
  Box,
  Button,
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
import { IconAlertTriangle, IconArrowUp, IconPhotoOff } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import {
  MSG,
  ALBUM_PAGE_SIZE,
  DEFAULT_TIMEZONE,
  P,
  type AlbumStats,
  type SnapshotListItem,
} from '@stadiumcam/contract';
import { dayjs, zoneLabel } from '../events/event-time.ts';
import { useCan } from '../auth/session.hooks.ts';
import { EventSelector } from '../events/event-selector.tsx';
import { useSelectedEvents } from '../events/selection.store.ts';
import { timeToUtc, type AlbumFilter } from './album-filter.ts';
import { useAlbumUrl, useLightboxRoute } from './album-url.ts';
import { AlbumFilters } from './album-filters.tsx';
import { AlbumExport, AlbumToolbar } from './album-toolbar.tsx';
import { useTileAbilities, type TileMenuKind, type TileMenuState } from './snapshot-tile.tsx';
import { AlbumGrid } from './album-grid.tsx';
import { useLightbox } from './lightbox.store.ts';
import { downloadFile } from './download.ts';
import { snapshotKeys, useAlbumList, useAlbumStats, useFilterOptions, type AlbumTab } from './snapshots.hooks.ts';
import { useAlbumKeys } from './album-keys.hooks.tsx';
import { useAlbumLive } from './album-live.hooks.ts';
import { useModeration } from './moderation.hooks.tsx';
import { useSelection } from './selection.hooks.ts';
import { useLatest } from '../../ui/latest.hooks.ts';

const TABS: { value: AlbumTab; label: string; stat: keyof AlbumStats }[] = [
  { value: 'all', label: MSG.album.allPhotos, stat: 'all' },
  { value: 'shared', label: 'Shared', stat: 'shared' },
  { value: 'favorites', label: 'Favorites', stat: 'favorite' },
  { value: 'magicshots', label: 'Magicshots', stat: 'magicshots' },
];

const NONE: SnapshotListItem[] = [];

/** Spec 1 §9: 5 pages shown (the active one ±2) and 2 at each end. */
const PAGE_SIBLINGS = 2;
const PAGE_BOUNDARIES = 2;

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
  const can = useTileAbilities();
  const url = useAlbumUrl(slugDates);
  const { tab, page, filter } = url;
  const [showOverlays, setShowOverlays] = useState(false);
  const [autoRefresh, setAutoRefresh] = useState(true);
  const selection = useSelection();
  const { toggleFavorite, toggleBan, toggleBanUser, deletePhotos } = useModeration();

  // Another event selection starts the album over (not the first one: a copied link's page stays).
  const selectionKey = slugDates.join(',');
  const [shownFor, setShownFor] = useState(selectionKey);
  if (shownFor !== selectionKey) {
    setShownFor(selectionKey);
    if (shownFor) url.update({ page: null, filter: null });
  }

  // The time filter is read in the first dated event's zone (its offset on the game day).
  const dated = events.find((e) => !e.template);
  const zone = dated?.timezone || DEFAULT_TIMEZONE;
  const gameDate = dated?.gameDate ?? dayjs().format('YYYY-MM-DD');
  // Zone arithmetic is slow (Intl), and the page renders on every live count.
  const { utcOffset, zoneText } = useMemo(() => {
    const noon = dayjs.tz(`${gameDate} 12:00`, zone);
    return { utcOffset: noon.utcOffset(), zoneText: zoneLabel(noon.toISOString(), zone) };
  }, [gameDate, zone]);
  // A new object only while a time range is set; the queries key on its content, not identity.
  const queryFilter = timeToUtc(filter, utcOffset);
  const params = { slugDates, tab, page, filter: queryFilter };
  const list = useAlbumList(params);
  const stats = useAlbumStats(slugDates, queryFilter);
  const options = useFilterOptions(slugDates);
  // Working on the grid (pointer over it, a selection, an open tile menu): new photos wait.
  const grid = useRef<HTMLDivElement>(null);
  const pointerIn = useRef(false);
  const selectedCount = useRef(0);
  const isWorking = useCallback(
    () => pointerIn.current || selectedCount.current > 0 || !!grid.current?.querySelector('[aria-expanded="true"]'),
    [],
  );
  const waiting = useAlbumLive({ ...params, autoRefresh, isWorking });
  const { settle } = waiting;
  useEffect(() => {
    selectedCount.current = selection.selected.size;
    if (!selection.selected.size) settle();
  }, [selection.selected.size, settle]);

  const items = useMemo(() => list.data?.items ?? [], [list.data]);
  const ids = useMemo(() => items.map((s) => s._id), [items]);
  const { keepOnly, clear, selectAll, toggle } = selection;
  const chosen = useMemo(
    () => (selection.selected.size ? items.filter((s) => selection.selected.has(s._id)) : NONE),
    [items, selection.selected],
  );
  useEffect(() => keepOnly(ids), [ids, keepOnly]);
  // Stable across list updates (a favourite patches the list): a new callback would render all
  // 100 memoised tiles again.
  const idsRef = useLatest(ids);

  const anyLive = events.some((e) => e.eventStatus === 'live');
  const tabStat = TABS.find((t) => t.value === tab)!.stat;
  const total = stats.data ? Math.max(1, Math.ceil(stats.data[tabStat] / ALBUM_PAGE_SIZE)) : 1;

  const handleTab = (value: string | null) => {
    if (!value) return;
    url.setTab(value as AlbumTab);
    clear();
  };
  // Stable, so the memoised filters and toolbar skip the page's many re-renders (live counts).
  const urlRef = useLatest(url);
  const handleFilter = useCallback(
    (next: AlbumFilter) => {
      urlRef.current.setFilter(next);
      clear();
    },
    [clear, urlRef],
  );
  const handleSelectAll = useCallback(() => selectAll(idsRef.current), [selectAll, idsRef]);
  const handlePage = (p: number) => {
    url.setPage(p);
    clear();
  };
  const handleAutoRefresh = (on: boolean) => {
    setAutoRefresh(on);
    if (on) void qc.invalidateQueries({ queryKey: snapshotKeys.all });
  };

  // Closing the lightbox gives focus back to the tile of the photo it showed last (issue 28
  // point 3), or to the one that opened it when that photo is on another page.
  const lightbox = useLightbox();
  const [opener, setOpener] = useState<string | null>(null);
  const [focusId, setFocusId] = useState<string | null>(null);
  const [lastShown, setLastShown] = useState<string | null>(null);
  const shownId = lightbox?.snapshotId ?? null;
  if (shownId !== lastShown) {
    setLastShown(shownId);
    if (shownId && !lastShown && !opener) setOpener(shownId);
    if (!shownId && lastShown) {
      setFocusId(ids.includes(lastShown) ? lastShown : opener);
      setOpener(null);
    }
  }
  const focused = useCallback(() => setFocusId(null), []);

  const handleToggleSelect = useCallback((index: number) => toggle(index, idsRef.current), [toggle, idsRef]);
  const openPhoto = useLightboxRoute(url, slugDates, showOverlays);
  const openPhotoRef = useLatest(openPhoto);
  // One element for the page's life: the selector re-renders on its own store, not on each
  // live count the album gets.
  const selector = useMemo(() => <EventSelector multiple />, []);
  const handleOpen = useCallback(
    (s: SnapshotListItem) => {
      setOpener(s._id);
      openPhotoRef.current(s._id);
    },
    [openPhotoRef],
  );
  const handleFavorite = useCallback((s: SnapshotListItem) => toggleFavorite([s]), [toggleFavorite]);
  const handleBanPhoto = useCallback((s: SnapshotListItem) => void toggleBan([s]), [toggleBan]);
  const handleBanUser = useCallback((s: SnapshotListItem) => void toggleBanUser(s), [toggleBanUser]);
  const handleDelete = useCallback((s: SnapshotListItem) => void deletePhotos([s]), [deletePhotos]);
  const handleDownload = useCallback(
    (s: SnapshotListItem, type: 'rawCroppedURI' | 'sharedURI') => downloadFile(s[type] || s.rawCroppedURI),
    [],
  );
  // One menu for the page's 100 tiles, opened at the button that asked for it.
  const [menu, setMenu] = useState<TileMenuState>(null);
  const handleMenu = useCallback(
    (snapshot: SnapshotListItem, kind: TileMenuKind, anchor: HTMLElement) => setMenu({ snapshot, kind, anchor }),
    [],
  );
  const closeMenu = useCallback(() => setMenu(null), []);

  useAlbumKeys({
    items,
    selected: chosen,
    onFavorite: (photos) => can.favorite && toggleFavorite(photos),
    onBan: (photos) => can.ban && void toggleBan(photos),
    onDelete: (photos) => can.remove && void deletePhotos(photos),
    onDownload: (s) => downloadFile((showOverlays && s.sharedURI) || s.rawCroppedURI),
    onToggleSelect: (index) => can.select && handleToggleSelect(index),
    onSelectAll: () => can.select && selectAll(ids),
    onPage: (delta) => {
      const next = Math.min(total, Math.max(1, page + delta));
      if (next !== page) handlePage(next);
    },
  });

  let body;
  if (!slugDates.length) body = <Message>{MSG.album.selectEvent}</Message>;
  else if (list.isError) body = <Message color="red">{MSG.album.fetchMediaFailed}</Message>;
  else if (list.isPending)
    body = (
      <Center h="100%" mih={240}>
        <Loader />
      </Center>
    );
  else if (!items.length) body = <Message>{MSG.album.noMedia}</Message>;
  else
    body = (
      <AlbumGrid
        gridRef={grid}
        items={items}
        selected={selection.selected}
        dimmed={list.isPlaceholderData}
        showOverlays={showOverlays}
        can={can}
        menu={menu}
        onCloseMenu={closeMenu}
        onToggleSelect={handleToggleSelect}
        onOpen={handleOpen}
        onFavorite={handleFavorite}
        onBanPhoto={handleBanPhoto}
        onBanUser={handleBanUser}
        onDelete={handleDelete}
        onDownload={handleDownload}
        onMenu={handleMenu}
        focusId={focusId}
        onFocused={focused}
      />
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
            {selector}
          </Group>
          <Group gap="lg">
            <Switch
              label={MSG.album.showOverlays}
              checked={showOverlays}
              onChange={(e) => setShowOverlays(e.currentTarget.checked)}
            />
            <Switch
              label={MSG.album.autoRefresh}
              checked={autoRefresh}
              onChange={(e) => handleAutoRefresh(e.currentTarget.checked)}
            />
          </Group>
        </Group>
        {/* The tabs, and at their end the export (page-wide: the toolbar stays on one line). */}
        <Group gap="sm" wrap="nowrap" align="center">
          <Tabs value={tab} onChange={handleTab} style={{ flex: 1, minWidth: 0 }}>
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
          <AlbumExport chosen={chosen} slugDates={slugDates} anyLive={anyLive} />
        </Group>
        {stats.isError && (
          <Alert color="red" icon={<IconAlertTriangle size={16} />} p="xs">
            {MSG.album.albumStatsFailed}
          </Alert>
        )}
        <AlbumToolbar
          chosen={chosen}
          pageCount={items.length}
          onSelectAll={handleSelectAll}
          onClear={clear}
          can={can}
        />
        {/* The pointer over the grid or its "N new photos" pill is working on the grid: going
            for the pill must not let the photos join (and the pill vanish) under it. */}
        <Box
          pos="relative"
          style={{ flex: 1, minHeight: 0, display: 'flex' }}
          onPointerEnter={() => (pointerIn.current = true)}
          onPointerLeave={() => {
            pointerIn.current = false;
            waiting.settle();
          }}
        >
          {waiting.count > 0 && (
            <Button
              size="xs"
              radius="xl"
              leftSection={<IconArrowUp size={14} />}
              onClick={waiting.show}
              data-testid="new-photos"
              style={{ position: 'absolute', top: 8, left: '50%', transform: 'translateX(-50%)', zIndex: 3 }}
            >
              {MSG.night.newPhotos(waiting.count)}
            </Button>
          )}
          <ScrollArea style={{ flex: 1 }} type="auto" offsetScrollbars>
            {body}
          </ScrollArea>
        </Box>
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
          zone={zoneText}
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
