import { useRef, useState } from 'react';
import { Badge, Box, Center, Group, Loader, ScrollArea, Stack, Switch, Tabs, Text, Tooltip } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { IconShare, IconSparkles } from '@tabler/icons-react';
import {
  MONITOR_SIDEBAR_PAGE_SIZE,
  MSG,
  P,
  shortUserId,
  snapshotsRoutes,
  type Snapshot,
  type SnapshotList,
  type SnapshotListItem,
} from '@stadiumcam/contract';
import { api } from '../../ui/api.ts';
import { useSocketEvent } from '../../ui/socket.ts';
import { useCan } from '../auth/session.hooks.ts';
import { eventClock } from '../events/event-time.ts';
import classes from './monitor.module.css';

type Tab = 'live' | 'shared';
const sidebarKey = (slugDate: string, tab: Tab) => ['monitor', 'sidebar', slugDate, tab] as const;

const asItem = (s: Snapshot): SnapshotListItem => ({ ...s, sharedPlatforms: [], contactInfo: null });
const front = (items: SnapshotListItem[], s: Snapshot) =>
  [asItem(s), ...items.filter((i) => i._id !== s._id)].slice(0, MONITOR_SIDEBAR_PAGE_SIZE);

/**
 * The monitor's photo column (spec 1 §2): the newest photos ("live") or the newest shared ones,
 * with or without their overlay. Socket updates pause while the pointer is over the list; if
 * any were missed the list is fetched again when it leaves.
 */
export function MonitorSidebar({ slugDate, timezone: tz }: { slugDate: string; timezone: string }) {
  const qc = useQueryClient();
  const canMagic = useCan(P.MAGICSHOTS_READ);
  const [tab, setTab] = useState<Tab>('live');
  const [overlay, setOverlay] = useState(true);
  const hovering = useRef(false);
  const missed = useRef(false);
  const [paused, setPaused] = useState(false);

  const type = tab === 'shared' ? 'shared' : canMagic ? 'all-with-magicshot' : 'all';
  const key = sidebarKey(slugDate, tab);
  const { data, isPending, isError } = useQuery({
    queryKey: key,
    queryFn: () =>
      api(snapshotsRoutes.list, {
        query: { slugDate: [slugDate], type, page: 1, pageSize: MONITOR_SIDEBAR_PAGE_SIZE },
      }),
    // Socket events only patch the tab on screen: the other one is fetched again when opened.
    staleTime: 0,
  });

  /** Applies a change unless the operator is looking at the list (then it is only noted). */
  const apply = (forTab: Tab, fn: (items: SnapshotListItem[]) => SnapshotListItem[]) => {
    if (forTab !== tab) return;
    if (hovering.current) {
      missed.current = true;
      return;
    }
    qc.setQueryData<SnapshotList>(key, (d) => (d ? { ...d, items: fn(d.items) } : d));
  };

  useSocketEvent('monitor newSnapshot', (s) => {
    if (s.slugDate !== slugDate || (s.magicshot && !canMagic)) return;
    apply('live', (items) => front(items, s));
  });
  useSocketEvent('monitor snapshotShared', (s) => {
    if (s.slugDate !== slugDate) return;
    apply('live', (items) => items.map((i) => (i._id === s._id ? { ...i, ...s } : i)));
    if (s.postObj.length > 0) apply('shared', (items) => front(items, s));
  });
  useSocketEvent('snapshotDeleted', ({ slugDate: sd, ids }) => {
    if (sd !== slugDate) return;
    apply(tab, (items) => items.filter((i) => !ids.includes(i._id)));
  });

  useSocketEvent('bannedChanged', ({ slugDate: sd, ids, userId, hidden }) => {
    // A banned photo gets new URLs: drop it, and ask again when it is shown again.
    if (sd !== slugDate) return;
    if (!hidden) {
      if (!hovering.current) void qc.invalidateQueries({ queryKey: key });
      else missed.current = true;
      return;
    }
    apply(tab, (items) => items.filter((i) => !ids?.includes(i._id) && i.userId !== userId));
  });

  const handleEnter = () => {
    hovering.current = true;
    setPaused(true);
  };
  const handleLeave = () => {
    hovering.current = false;
    setPaused(false);
    if (missed.current) {
      missed.current = false;
      void qc.invalidateQueries({ queryKey: key });
    }
  };

  const items = data?.items ?? [];
  return (
    <Stack gap={6} h="100%" w={240} style={{ flex: 'none', minHeight: 0 }} data-testid="monitor-sidebar">
      <Tabs value={tab} onChange={(v) => setTab((v as Tab) ?? 'live')} variant="pills">
        <Tabs.List grow>
          <Tabs.Tab value="live" data-testid="sidebar-tab-live">
            Live
          </Tabs.Tab>
          <Tabs.Tab value="shared" data-testid="sidebar-tab-shared">
            Shared
          </Tabs.Tab>
        </Tabs.List>
      </Tabs>
      <Group justify="space-between" gap={4}>
        <Switch
          size="xs"
          label="Overlay"
          checked={overlay}
          onChange={(e) => setOverlay(e.currentTarget.checked)}
          data-testid="sidebar-overlay"
        />
        {paused && (
          <Badge size="xs" variant="light" color="gray">
            paused
          </Badge>
        )}
      </Group>
      <ScrollArea
        style={{ flex: 1, minHeight: 0 }}
        onMouseEnter={handleEnter}
        onMouseLeave={handleLeave}
        type="hover"
        offsetScrollbars
        viewportProps={{ tabIndex: 0, role: 'region', 'aria-label': MSG.a11y.scrollRegion('Photos') }}
      >
        {isPending ? (
          <Center py="xl">
            <Loader size="sm" />
          </Center>
        ) : isError ? (
          <Text size="sm" c="red" ta="center" py="md">
            Error fetching media.
          </Text>
        ) : items.length === 0 ? (
          <Text size="sm" c="dimmed" ta="center" py="md">
            No media available.
          </Text>
        ) : (
          <Stack gap={8} data-testid="sidebar-list">
            {items.map((s) => (
              <SidebarPhoto key={s._id} s={s} overlay={overlay} tz={tz} />
            ))}
          </Stack>
        )}
      </ScrollArea>
    </Stack>
  );
}

function SidebarPhoto({ s, overlay, tz }: { s: SnapshotListItem; overlay: boolean; tz: string }) {
  const src = overlay && s.overlay ? s.sharedURI : s.thumbURI;
  return (
    <Box pos="relative" data-testid={`sidebar-photo-${s._id}`} data-user={s.userId}>
      <img className={classes.sidebarThumb} src={src} alt={`Photo of ${s.userId}`} loading="lazy" />
      <Group gap={4} pos="absolute" top={4} right={4}>
        {s.magicshot && (
          <Tooltip label="MagicShot">
            <Badge size="xs" color="yellow" variant="filled" leftSection={<IconSparkles size={10} />}>
              magic
            </Badge>
          </Tooltip>
        )}
        {s.postObj.length > 0 && (
          <Tooltip label={MSG.album.sharedTimes(s.postObj.length)}>
            <Badge size="xs" color="teal" variant="filled" leftSection={<IconShare size={10} />}>
              {s.postObj.length}
            </Badge>
          </Tooltip>
        )}
      </Group>
      <Group justify="space-between" gap={4} mt={2} wrap="nowrap">
        <Text size="xs" fw={600} truncate title={s.userId}>
          {shortUserId(s.userId)}
        </Text>
        <Text size="xs" c="dimmed" ff="monospace" style={{ flex: 'none' }}>
          {eventClock(s.date, tz)}
        </Text>
      </Group>
      {/* A MagicShot has no seat: "No seat", never an empty "Sec · Row · Seat" (issue 28 point 5). */}
      <Text size="xs" c="dimmed" truncate title={MSG.album.seatWords(s)} data-testid="sidebar-seat">
        {s.camera} · {MSG.album.seatCaption(s)}
      </Text>
    </Box>
  );
}
