import { useState } from 'react';
import {
  ActionIcon,
  Anchor,
  Badge,
  Button,
  Center,
  Drawer,
  Group,
  Indicator,
  Loader,
  Paper,
  Stack,
  Table,
  Text,
  Tooltip,
} from '@mantine/core';
import { IconAlertTriangle, IconBan, IconBell, IconCheck, IconPhoto, IconUserX, IconZzz } from '@tabler/icons-react';
import { Link } from 'react-router';
import { MSG, P, type Notification } from '@stadiumcam/contract';
import { useCan } from '../auth/session.hooks.ts';
import { eventClock, eventDateTime } from '../events/event-time.ts';
import { useMonitorEvent } from '../monitor/monitor-event.ts';
import { useUserCommands } from '../monitor/user-commands.tsx';
import { albumOfUser } from '../snapshots/album-url.ts';
import { useDismissNotification, useNotificationCount, useNotifications } from './notifications.hooks.ts';

const SEATS_SHOWN = 5;

function NotificationCard({ n, tz, onDismiss }: { n: Notification; tz: string; onDismiss: () => void }) {
  const [all, setAll] = useState(false);
  const users = useUserCommands();
  const userId = n.data.userId;
  const records = all ? n.data.allSRS : n.data.allSRS.slice(0, SEATS_SHOWN);
  return (
    <Paper withBorder p="sm" radius="md" data-testid="notification-card" data-id={n._id}>
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        {/* A fan's id is a long token: one line, whole on hover; Dismiss keeps its width. */}
        <Group gap="xs" wrap="nowrap" style={{ flex: 1, minWidth: 0 }}>
          <IconAlertTriangle size={20} color="var(--mantine-color-orange-5)" style={{ flex: 'none' }} />
          <div style={{ minWidth: 0 }}>
            <Text size="sm" fw={700} truncate title={n.data.userId}>
              Suspicious user{' '}
              <Text span ff="monospace" fw={700}>
                {n.data.userId}
              </Text>
            </Text>
            <Text size="xs" c="dimmed">
              {eventDateTime(n.date, tz)}
            </Text>
          </div>
        </Group>
        <Button
          size="compact-xs"
          variant="light"
          leftSection={<IconCheck size={14} />}
          style={{ flex: 'none' }}
          onClick={onDismiss}
          data-testid={`dismiss-${n._id}`}
        >
          Dismiss
        </Button>
      </Group>
      <Group gap="xs" mt={6}>
        <Badge variant="light" color="orange" size="sm">
          {n.data.snapshotsTaken} photos
        </Badge>
        <Badge variant="light" color="orange" size="sm">
          {n.data.distinctSRS} seats
        </Badge>
      </Group>
      <Table mt={6} fz="xs" verticalSpacing={2} horizontalSpacing={6} striped withRowBorders={false}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Section</Table.Th>
            <Table.Th>Row</Table.Th>
            <Table.Th>Seat</Table.Th>
            <Table.Th>Time</Table.Th>
            <Table.Th>Photo</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {records.map((r) => (
            <Table.Tr key={r._id}>
              <Table.Td>{r.section}</Table.Td>
              <Table.Td>{r.row}</Table.Td>
              <Table.Td>{r.seat}</Table.Td>
              <Table.Td ff="monospace">{eventClock(r.time, tz)}</Table.Td>
              {/* The record's _id is its photo's: a link to the photo, not a UUID to read. */}
              <Table.Td>
                <Anchor
                  component={Link}
                  to={`/snapshot/${r._id}`}
                  size="xs"
                  aria-label={`Open the photo from section ${r.section}, row ${r.row}, seat ${r.seat}`}
                >
                  Open
                </Anchor>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {n.data.allSRS.length > SEATS_SHOWN && (
        <Anchor component="button" size="xs" mt={4} onClick={() => setAll((v) => !v)}>
          {all ? 'Show fewer' : `Show all ${n.data.allSRS.length}`}
        </Anchor>
      )}
      <Group gap="xs" mt="xs" data-testid="notification-actions">
        <Button
          size="compact-xs"
          variant="default"
          leftSection={<IconPhoto size={14} />}
          component={Link}
          to={albumOfUser(n.slugDate, userId)}
        >
          Photos
        </Button>
        <Button
          size="compact-xs"
          variant="default"
          leftSection={<IconUserX size={14} />}
          onClick={() => void users.kick(userId)}
        >
          Kick
        </Button>
        <Button
          size="compact-xs"
          variant="default"
          leftSection={<IconZzz size={14} />}
          onClick={() => users.snooze(userId)}
        >
          Snooze
        </Button>
        {users.canBan && (
          <Button
            size="compact-xs"
            color="red"
            variant="light"
            leftSection={<IconBan size={14} />}
            onClick={() => void users.ban(userId)}
          >
            Ban
          </Button>
        )}
      </Group>
    </Paper>
  );
}

/** Suspicious-user notifications of an event (spec 3 §2.5), 20 a page, each with Dismiss. */
export function NotificationsList({ slugDate, timezone: tz }: { slugDate: string; timezone: string }) {
  const { data, isPending, fetchNextPage, hasNextPage, isFetchingNextPage } = useNotifications(slugDate);
  const dismiss = useDismissNotification(slugDate);
  if (isPending) {
    return (
      <Center py="xl">
        <Loader size="sm" />
      </Center>
    );
  }
  const open = (data?.pages.flat() ?? []).filter((n) => !n.addressed);
  return (
    <Stack gap="sm" data-testid="notifications-list">
      {open.length === 0 && (
        <Text c="dimmed" ta="center" py="xl" data-testid="notifications-empty">
          {MSG.notifications.noNotifications}
        </Text>
      )}
      {open.map((n) => (
        <NotificationCard key={n._id} n={n} tz={tz} onDismiss={() => dismiss.mutate(n._id)} />
      ))}
      {hasNextPage && (
        <Button variant="subtle" size="xs" loading={isFetchingNextPage} onClick={() => void fetchNextPage()}>
          Load more
        </Button>
      )}
    </Stack>
  );
}

/** The bell with the number of open notifications; opens the list in a drawer. */
export function NotificationBell({ slugDate, timezone: tz }: { slugDate: string; timezone: string }) {
  const count = useNotificationCount(slugDate);
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Tooltip label="Notifications">
        <Indicator
          label={count}
          size={18}
          color="orange"
          disabled={count === 0}
          offset={4}
          data-testid="notification-count"
          data-count={count}
        >
          <ActionIcon
            variant="default"
            size="lg"
            onClick={() => setOpened(true)}
            aria-label={`Notifications: ${count}`}
          >
            <IconBell size={18} />
          </ActionIcon>
        </Indicator>
      </Tooltip>
      <Drawer
        opened={opened}
        onClose={() => setOpened(false)}
        position="right"
        size={520}
        title={<Text fw={700}>Notifications ({count})</Text>}
      >
        <NotificationsList slugDate={slugDate} timezone={tz} />
      </Drawer>
    </>
  );
}

/** The header's bell: the count of the monitored event's notifications, for whoever sees the monitor. */
export function HeaderNotifications() {
  const { event } = useMonitorEvent();
  const allowed = useCan(P.MONITOR_READ);
  if (!allowed || !event) return null;
  return <NotificationBell slugDate={event.slugDate} timezone={event.timezone} />;
}
