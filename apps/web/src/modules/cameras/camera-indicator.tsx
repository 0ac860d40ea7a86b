import { Badge, Button, Group, Loader, Menu, Text } from '@mantine/core';
import { IconDeviceCctv, IconDeviceCctvOff } from '@tabler/icons-react';
import { MSG, P } from '@stadiumcam/contract';
import { useCan } from '../auth/session.hooks.ts';
import { summarise, useCameraStatus } from './cameras.hooks.ts';

/**
 * Header camera status (spec 1 §2, §4): all on, all off, or "N Down", with a dropdown of
 * every camera and its state. Needs main_header_camStatus.
 */
export function CameraIndicator() {
  const allowed = useCan(P.CAM_STATUS);
  const { data, isPending } = useCameraStatus();
  if (!allowed) return null;
  if (isPending) return <Loader size="xs" />;

  const cameras = data?.cameras ?? {};
  const names = Object.keys(cameras).sort();
  const { kind, down } = summarise(cameras);
  const none = names.length === 0;
  const label = none
    ? 'No cameras'
    : kind === 'on'
      ? 'All on'
      : kind === 'off'
        ? 'All off'
        : MSG.cameras.camerasDown(down);
  const color = none ? 'gray' : kind === 'on' ? 'teal' : kind === 'off' ? 'red' : 'orange';

  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button
          variant="light"
          color={color}
          size="compact-sm"
          leftSection={kind === 'on' && !none ? <IconDeviceCctv size={16} /> : <IconDeviceCctvOff size={16} />}
          data-testid="camera-indicator"
          aria-label={`Cameras: ${label}`}
        >
          {label}
        </Button>
      </Menu.Target>
      <Menu.Dropdown miw={180} data-testid="camera-indicator-list">
        <Menu.Label>Cameras{data?.demo ? ' (demo mode)' : ''}</Menu.Label>
        {none && (
          <Text size="sm" c="dimmed" px="sm" py={6}>
            {MSG.cameras.noCameras}
          </Text>
        )}
        {names.map((name) => (
          <Group key={name} justify="space-between" px="sm" py={6} gap="lg" wrap="nowrap">
            <Text size="sm">{name}</Text>
            <Badge size="sm" variant="dot" color={cameras[name] === 'on' ? 'teal' : 'red'}>
              {cameras[name]}
            </Badge>
          </Group>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
