import {
  ActionIcon,
  Badge,
  Box,
  Button,
  Group,
  Loader,
  Paper,
  Stack,
  Text,
  Tooltip,
  type MantineStyleProp,
} from '@mantine/core';
import { IconBan, IconCamera, IconClock, IconDoorExit, IconPower } from '@tabler/icons-react';
import { MSG, shortUserId, type PanAndZoom } from '@stadiumcam/contract';
import { CameraStream } from './camera-stream.tsx';
import { useLiveTimeLeft, type MonitorCamera } from './monitor.hooks.ts';
import classes from './monitor.module.css';

export type TileActions = {
  canShoot: boolean;
  shooting: boolean;
  onShoot: () => void;
  canPower: boolean;
  powerPending: boolean;
  powerLocked: boolean;
  onPower: (on: boolean) => void;
  onKick: (userId: string) => void;
  /** Ban needs what the album's user ban needs (DESIGN §6): without it there is no Ban button. */
  canBan: boolean;
  onBan: (userId: string) => void;
};

const mmss = (s: number) => `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;

function Countdown({ cam }: { cam: MonitorCamera }) {
  const left = useLiveTimeLeft(cam);
  return (
    <Badge
      size="sm"
      variant="filled"
      color={left <= 5 ? 'red' : 'dark'}
      leftSection={<IconClock size={12} />}
      ff="monospace"
      data-testid={`livetime-${cam.camera}`}
    >
      {mmss(left)}
    </Badge>
  );
}

/** Where the camera looks in the bowl: the view rectangle is 1/scale of the field, centred at posX, posY. */
function Minimap({ pz }: { pz: PanAndZoom }) {
  const size = Math.min(1, 1 / Math.max(pz.scale, 1));
  const clamp = (v: number) => Math.min(1 - size, Math.max(0, v - size / 2));
  return (
    <div className={classes.minimap} aria-hidden>
      <div
        className={classes.minimapView}
        style={{
          width: `${size * 100}%`,
          height: `${size * 100}%`,
          left: `${clamp(pz.posX) * 100}%`,
          top: `${clamp(pz.posY) * 100}%`,
        }}
      />
    </div>
  );
}

/** "Sec 107": a label and its value, never split over two lines. */
function SeatPart({ label, value }: { label: string; value: string }) {
  return (
    <span style={{ whiteSpace: 'nowrap' }}>
      <Text span c="dimmed" size="xs">
        {label}{' '}
      </Text>
      {value}
    </span>
  );
}

/**
 * One camera of the monitor: stream, current attendee with their seat and turn countdown,
 * the queue, pan and zoom, and the operator's controls (take photo, kick, ban, power).
 */
export function CameraTile({
  cam,
  focusUser,
  compact = false,
  selected = false,
  onSelect,
  actions,
  style,
}: {
  cam: MonitorCamera;
  focusUser?: string;
  compact?: boolean;
  selected?: boolean;
  onSelect?: () => void;
  actions: TileActions;
  style?: MantineStyleProp;
}) {
  const on = cam.status === 'on';
  const current = cam.queue[0];
  const waiting = cam.queue.slice(1);
  const srs = cam.firstSrs;

  const name = (
    <Group gap={6} wrap="nowrap">
      <Box
        w={8}
        h={8}
        style={{ borderRadius: 8, background: on ? 'var(--mantine-color-teal-5)' : 'var(--mantine-color-red-6)' }}
      />
      <Text size="sm" fw={700} c="white">
        {cam.camera}
      </Text>
      {cam.host && !compact && (
        <Text size="xs" c="gray.4" visibleFrom="xl">
          {cam.host.name}
        </Text>
      )}
    </Group>
  );

  const shootButton = actions.canShoot && (
    <Tooltip label="Take photo">
      <ActionIcon
        variant="filled"
        color="yellow"
        size={compact ? 'sm' : 'md'}
        loading={actions.shooting}
        disabled={!on}
        onClick={(e) => {
          e.stopPropagation();
          actions.onShoot();
        }}
        aria-label={`Take photo with ${cam.camera}`}
        data-testid={`shoot-${cam.camera}`}
      >
        <IconCamera size={compact ? 14 : 18} />
      </ActionIcon>
    </Tooltip>
  );

  const bottom = (
    <>
      <Text size="xs" c="white" fw={600} truncate title={current} data-testid={`current-${cam.camera}`}>
        {current ? shortUserId(current) : MSG.auth.noCurrentUser}
      </Text>
      <Group gap={6} wrap="nowrap">
        {current && <Countdown cam={cam} />}
        {shootButton}
      </Group>
    </>
  );

  return (
    <Paper
      withBorder
      p={compact ? 4 : 6}
      radius="md"
      className={selected ? classes.selected : undefined}
      onClick={onSelect}
      style={{ cursor: onSelect ? 'pointer' : undefined, ...(style as object) }}
      data-testid={`camera-tile-${cam.camera}`}
      data-selected={selected || undefined}
    >
      <CameraStream camera={cam.camera} on={on} focusUser={focusUser} top={name} bottom={bottom} />
      {!compact && (
        <Stack gap={6} pt={8} px={4} pb={2}>
          {/* The seat is what the operator reads out: shown whole, never cut. It keeps the line
              with the zoom and the minimap (the pan position is the minimap, its figures in the
              tooltip), and in a tile too narrow for that it wraps between its parts. */}
          <Group justify="space-between" wrap="nowrap" gap="xs">
            <Text size="sm" style={{ minWidth: 0 }} data-testid={`srs-${cam.camera}`}>
              {srs ? (
                <>
                  <SeatPart label="Sec" value={srs.section} />
                  <Text span c="dimmed" size="xs">
                    {' · '}
                  </Text>
                  <SeatPart label="Row" value={srs.row} />
                  <Text span c="dimmed" size="xs">
                    {' · '}
                  </Text>
                  <SeatPart label="Seat" value={srs.seat} />
                </>
              ) : (
                <Text span c="dimmed" size="sm">
                  No seat record
                </Text>
              )}
            </Text>
            {cam.panAndZoom && (
              <Tooltip
                label={`Zoom ${cam.panAndZoom.scale.toFixed(1)}× · pan ${cam.panAndZoom.posX.toFixed(2)}, ${cam.panAndZoom.posY.toFixed(2)}`}
              >
                <Group gap={6} wrap="nowrap" style={{ flex: 'none' }} data-testid={`panzoom-${cam.camera}`}>
                  <Text size="xs" c="dimmed" ff="monospace">
                    {cam.panAndZoom.scale.toFixed(1)}×
                  </Text>
                  <Minimap pz={cam.panAndZoom} />
                </Group>
              </Tooltip>
            )}
          </Group>
          <Group gap={4} wrap="nowrap" style={{ overflow: 'hidden' }} data-testid={`queue-${cam.camera}`}>
            <Text size="xs" c="dimmed" fw={600} style={{ flex: 'none' }}>
              Queue {cam.queue.length}
            </Text>
            {waiting.slice(0, 4).map((id) => (
              <Badge key={id} size="xs" variant="default" tt="none" style={{ flex: 'none' }} title={id}>
                {shortUserId(id)}
              </Badge>
            ))}
            {waiting.length > 4 && (
              <Text size="xs" c="dimmed">
                +{waiting.length - 4}
              </Text>
            )}
          </Group>
          <Group gap={6} justify="space-between" wrap="nowrap">
            <Group gap={6} wrap="nowrap">
              <Button
                size="compact-xs"
                variant="light"
                color="orange"
                leftSection={<IconDoorExit size={14} />}
                disabled={!current}
                onClick={() => current && actions.onKick(current)}
                data-testid={`kick-${cam.camera}`}
              >
                Kick
              </Button>
              {actions.canBan && (
                <Button
                  size="compact-xs"
                  variant="light"
                  color="red"
                  leftSection={<IconBan size={14} />}
                  disabled={!current}
                  onClick={() => current && actions.onBan(current)}
                  data-testid={`ban-${cam.camera}`}
                >
                  Ban
                </Button>
              )}
            </Group>
            {actions.canPower && (
              <Group gap={4} wrap="nowrap">
                {actions.powerPending && <Loader size={14} />}
                <Tooltip label={on ? 'Turn camera off' : 'Turn camera on'}>
                  <ActionIcon
                    size="sm"
                    variant={on ? 'light' : 'filled'}
                    color={on ? 'red' : 'teal'}
                    disabled={actions.powerPending || actions.powerLocked}
                    onClick={() => actions.onPower(!on)}
                    aria-label={on ? `Turn ${cam.camera} off` : `Turn ${cam.camera} on`}
                    data-testid={`tile-power-${cam.camera}`}
                  >
                    <IconPower size={14} />
                  </ActionIcon>
                </Tooltip>
              </Group>
            )}
          </Group>
        </Stack>
      )}
    </Paper>
  );
}
