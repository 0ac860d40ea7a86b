import { useEffect, useRef, useState } from 'react';
import { Box, Button, Center, Group, Loader, SegmentedControl, Stack, Text, Title, Tooltip } from '@mantine/core';
import { IconCamera, IconLayoutGrid, IconLayoutSidebarRight } from '@tabler/icons-react';
import { BIG_BLOCK_ROTATE_MS, DEFAULT_SLUG, DEFAULT_TIMEZONE, MSG, P } from '@stadiumcam/contract';
import { useCan } from '../auth/session.hooks.ts';
import { useCameraStatus, usePowerCommand } from '../cameras/cameras.hooks.ts';
import { EventStatusRadio } from '../events/power-menu.tsx';
import { CameraGrid } from './camera-grid.tsx';
import type { TileActions } from './camera-tile.tsx';
import { LiveMetricsPanel } from './live-metrics-panel.tsx';
import { useFocusAnimation, useMagicShots } from './magicshot.hooks.tsx';
import { useMonitorEvent } from './monitor-event.ts';
import { MonitorSidebar } from './monitor-sidebar.tsx';
import { useUserCommands } from './user-commands.tsx';
import { useMonitorToasts } from './monitor-toasts.ts';
import { useLivestreams, useMonitorCameras, type MonitorCamera } from './monitor.hooks.ts';

type Layout = 'blocks' | 'big-block';

/**
 * Big-block's selected camera: moves on every 30 s, and at once to a camera with an attendee
 * when the queues go from all empty to someone waiting.
 */
function useRotation(cameras: MonitorCamera[], active: boolean) {
  const [selected, setSelected] = useState<string | null>(null);
  const names = cameras.map((c) => c.camera);
  const onNames = cameras.filter((c) => c.status === 'on').map((c) => c.camera);
  const withUser = cameras.find((c) => c.queue.length > 0)?.camera ?? null;
  const hadUser = useRef(withUser !== null);

  useEffect(() => {
    if (withUser !== null && !hadUser.current && active) setSelected(withUser);
    hadUser.current = withUser !== null;
  }, [withUser, active]);

  const effective = selected && names.includes(selected) ? selected : (names[0] ?? null);
  const cycle = (onNames.length > 0 ? onNames : names).join(',');
  useEffect(() => {
    if (!active || !cycle) return;
    const list = cycle.split(',');
    const t = setInterval(() => {
      setSelected(list[(list.indexOf(effective ?? '') + 1) % list.length]);
    }, BIG_BLOCK_ROTATE_MS);
    return () => clearInterval(t);
    // A manual pick (a new `effective`) restarts the 30 s.
  }, [active, cycle, effective]);

  return [effective, setSelected] as const;
}

export function MonitorPage() {
  const { event } = useMonitorEvent();
  const slugDate = event?.slugDate ?? null;
  const tz = event?.timezone ?? DEFAULT_TIMEZONE;
  const { data, isPending, isError } = useMonitorCameras();
  useCameraStatus();
  const cameras = data?.cameras ?? [];
  const [layoutChoice, setLayout] = useState<Layout>('blocks');
  const layout: Layout = cameras.length > 1 ? layoutChoice : 'blocks';
  const [selected, setSelected] = useRotation(cameras, layout === 'big-block');
  const focus = useFocusAnimation();
  const shots = useMagicShots(slugDate);
  useMonitorToasts(slugDate);
  // Toasts stay over the photo column (issue 28 §6): 440 px wide at the bottom right they
  // covered the last tile's Take photo, Kick and Ban.
  useEffect(() => {
    document.body.dataset.toasts = 'monitor';
    return () => void delete document.body.dataset.toasts;
  }, []);
  const power = usePowerCommand();
  const users = useUserCommands();
  const canShoot = useCan(P.MAGICSHOTS_WRITE);
  const canPower = useCan(P.POWER_BTN);
  const canSetStatus = useCan([P.EVENT_WRITE, P.POWER_BTN], { or: true });
  useLivestreams(
    slugDate ?? DEFAULT_SLUG,
    cameras.map((c) => c.camera),
  );

  const actionsFor = (cam: MonitorCamera): TileActions => ({
    canShoot,
    shooting: shots.busy(cam.camera),
    onShoot: () => shots.take(cam.camera, [cam.camera]),
    canPower,
    powerPending: power.isPending(cam.camera),
    powerLocked: data?.demo ?? false,
    onPower: (on) => void power.run(cam.camera, on),
    onKick: (userId) => void users.kick(userId),
    canBan: users.canBan,
    onBan: (userId) => void users.ban(userId),
  });

  const anyOn = cameras.some((c) => c.status === 'on');
  return (
    <Stack
      gap="xs"
      h="calc(100dvh - var(--app-shell-header-height, 56px) - 2 * var(--mantine-spacing-md))"
      data-testid="monitor-page"
    >
      <Group justify="space-between" wrap="nowrap" gap="sm">
        <Group gap="md" wrap="nowrap" style={{ minWidth: 0 }}>
          <Title order={3}>Monitor</Title>
          {event && (
            <Text c="dimmed" size="sm" truncate>
              {event.title}
            </Text>
          )}
          {canSetStatus && <EventStatusRadio />}
        </Group>
        <Group gap="xs" wrap="nowrap">
          <Tooltip label={cameras.length <= 1 ? 'Big block needs two cameras or more' : 'Layout'}>
            <SegmentedControl
              size="xs"
              aria-label="Layout"
              data-testid="layout"
              value={layout}
              onChange={(v) => setLayout(v)}
              data={[
                {
                  value: 'blocks',
                  label: (
                    <Group gap={4} wrap="nowrap">
                      <IconLayoutGrid size={14} />
                      <span>Blocks</span>
                    </Group>
                  ),
                },
                {
                  value: 'big-block',
                  disabled: cameras.length <= 1,
                  label: (
                    <Group gap={4} wrap="nowrap">
                      <IconLayoutSidebarRight size={14} />
                      <span>Big block</span>
                    </Group>
                  ),
                },
              ]}
            />
          </Tooltip>
          {canShoot && (
            <Button
              size="xs"
              color="yellow"
              leftSection={<IconCamera size={16} />}
              loading={shots.anyBusy}
              disabled={!anyOn}
              onClick={() =>
                shots.take(
                  null,
                  cameras.filter((c) => c.status === 'on').map((c) => c.camera),
                )
              }
              data-testid="shoot-all"
            >
              Take photo
            </Button>
          )}
        </Group>
      </Group>

      <Group align="stretch" wrap="nowrap" gap="sm" style={{ flex: 1, minHeight: 0 }}>
        <Box style={{ flex: 1, minWidth: 0, minHeight: 0 }}>
          {isPending ? (
            <Center h="100%">
              <Loader />
            </Center>
          ) : isError ? (
            <Center h="100%">
              <Text c="red">{MSG.common.genericError}</Text>
            </Center>
          ) : cameras.length === 0 ? (
            <Center h="100%">
              <Text c="dimmed" size="lg" data-testid="no-cameras">
                {MSG.cameras.noCameras}
              </Text>
            </Center>
          ) : (
            <CameraGrid
              cameras={cameras}
              layout={layout}
              selected={selected}
              onSelect={setSelected}
              focus={focus}
              actionsFor={actionsFor}
            />
          )}
        </Box>
        <Stack gap="xs" w={240} style={{ flex: 'none', minHeight: 0 }}>
          {slugDate ? (
            <>
              <LiveMetricsPanel slugDate={slugDate} />
              <Box style={{ flex: 1, minHeight: 0 }}>
                <MonitorSidebar slugDate={slugDate} timezone={tz} />
              </Box>
            </>
          ) : (
            <Text size="sm" c="dimmed" ta="center" py="md">
              Please select an event.
            </Text>
          )}
        </Stack>
      </Group>
    </Stack>
  );
}
