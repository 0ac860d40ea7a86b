import { useMemo, useState } from 'react';
import {
  Anchor,
  Badge,
  Button,
  Center,
  Checkbox,
  Group,
  Loader,
  MultiSelect,
  Pagination,
  Paper,
  ScrollArea,
  Select,
  Stack,
  Table,
  Text,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { IconBan, IconChevronDown, IconChevronUp, IconDownload, IconSelector, IconTrash } from '@tabler/icons-react';
import dayjs from 'dayjs';
import {
  DEFAULT_TIMEZONE,
  EVENT_USERS_PAGE_SIZE,
  MSG,
  P,
  can,
  overlayLabel,
  type SnapshotListItem,
} from '@stadiumcam/contract';
import { useLiveRefresh } from '../../ui/live-refresh.hooks.ts';
import { useSession } from '../auth/session.hooks.ts';
import { EventSelector } from '../events/event-selector.tsx';
import { useSelectedEvents, type SelectedEvent } from '../events/selection.store.ts';
import { localTime } from '../snapshots/snapshot-time.ts';
import { useFilterOptions } from '../snapshots/snapshots.hooks.ts';
import { useModeration } from '../snapshots/moderation.hooks.tsx';
import {
  EMPTY_FILTER,
  eventUsersExportUrl,
  eventUsersKey,
  useEventUsers,
  useSharePlatforms,
  type EventUsersFilter,
  type EventUsersSort,
} from './event-users.hooks.ts';

/** Ban/Unban label rule (spec 3 §4): Unban when all are banned, Ban when none, disabled when mixed. */
export function banButton(selected: Pick<SnapshotListItem, 'hidden'>[]) {
  const banned = selected.filter((s) => s.hidden).length;
  if (selected.length === 0) return { label: 'Ban', disabled: true };
  if (banned === selected.length) return { label: 'Unban', disabled: false };
  return { label: 'Ban', disabled: banned > 0 };
}

const SORTABLE: Record<string, EventUsersSort['field']> = {
  userId: 'userId',
  section: 'section',
  row: 'row',
  seat: 'seat',
  date: 'date',
};

const PAGE_HEIGHT = 'calc(100dvh - var(--app-shell-header-height, 56px) - 2 * var(--mantine-spacing-md))';
/** The photo id's column: its first 8 characters, the rest behind an ellipsis and a title. */
const ID_WIDTH = 96;
/** A fan's id is a long token: its start, the whole on hover. */
const USER_WIDTH = 150;
const NOWRAP = { whiteSpace: 'nowrap' } as const;

/** Filter dropdowns keep a minimum height (spec 3 §2.3: 200 or 350 px). */
const dropdown = (minHeight: 200 | 350) => ({ comboboxProps: { styles: { dropdown: { minHeight } } } });

function SortHeader({
  field,
  label,
  sort,
  onSort,
}: {
  field: string;
  label: string;
  sort: EventUsersSort;
  onSort: (s: EventUsersSort) => void;
}) {
  const key = SORTABLE[field];
  if (!key) return <Table.Th>{label}</Table.Th>;
  const active = sort.field === key;
  const Icon = active ? (sort.order === 'asc' ? IconChevronUp : IconChevronDown) : IconSelector;
  return (
    <Table.Th>
      <UnstyledButton
        onClick={() => onSort({ field: key, order: active && sort.order === 'desc' ? 'asc' : 'desc' })}
        aria-label={`Sort by ${label}`}
      >
        <Group gap={4} wrap="nowrap">
          <Text fw={700} size="sm">
            {label}
          </Text>
          <Icon size={14} />
        </Group>
      </UnstyledButton>
    </Table.Th>
  );
}

/** Event Users page (spec 3 §2.3): the people who took photos at an event, 50 photos a page. */
export function EventUsersPage() {
  const { events } = useSelectedEvents();
  // A new event starts from the first page with no filter or selection.
  return <EventUsersView key={events[0]?.slugDate ?? ''} event={events[0]} />;
}

function EventUsersView({ event }: { event: SelectedEvent | undefined }) {
  const { permissions } = useSession();
  const mayWrite = can(permissions, P.EVENT_USERS_WRITE);
  const slugDate = event?.slugDate;
  const tz = event?.timezone ?? DEFAULT_TIMEZONE;
  const [page, setPage] = useState(1);
  const [filter, setFilter] = useState<EventUsersFilter>(EMPTY_FILTER);
  const [sort, setSort] = useState<EventUsersSort>({ field: 'date', order: 'desc' });
  const [selectedIds, setSelectedIds] = useState<string[]>([]);
  const [days, setDays] = useState<[string | null, string | null]>([null, null]);

  const users = useEventUsers(slugDate ? { slugDate, page, filter, sort } : null);
  const options = useFilterOptions(slugDate ? [slugDate] : []);
  const platforms = useSharePlatforms(slugDate);
  const { toggleBan, deletePhotos, deleting } = useModeration();
  useLiveRefresh(slugDate, event?.eventStatus === 'live', eventUsersKey);

  const items = useMemo(() => users.data?.items ?? [], [users.data]);
  const total = users.data?.total ?? 0;
  // A page emptied by deletes (here or by another console) is past the end: go to the last page
  // that has rows rather than showing 'There are no users.' for an event that has some.
  const lastPage = Math.max(1, Math.ceil(total / EVENT_USERS_PAGE_SIZE));
  // (Adjusted while rendering, React's pattern for state derived from a fetched answer.)
  if (users.data && !users.isPlaceholderData && page > lastPage) setPage(lastPage);
  const selected = items.filter((s) => selectedIds.includes(s._id));
  const ban = banButton(selected);
  const allChecked = items.length > 0 && items.every((s) => selectedIds.includes(s._id));

  const change = (patch: Partial<EventUsersFilter>) => {
    setFilter((f) => ({ ...f, ...patch }));
    setPage(1);
    setSelectedIds([]);
  };
  const handleDays = (value: [string | null, string | null]) => {
    setDays(value);
    const [from, to] = value;
    if ((from && to) || (!from && !to))
      change({
        dateFrom: from ? dayjs.tz(from, tz).startOf('day').toISOString() : null,
        dateTo: to ? dayjs.tz(to, tz).endOf('day').toISOString() : null,
      });
  };
  const toggle = (id: string) =>
    setSelectedIds((ids) => (ids.includes(id) ? ids.filter((x) => x !== id) : [...ids, id]));

  // The fields of spec 3 §2.3, in its order, named in an operator's words (DESIGN §6).
  const columns: [string, string][] = [
    ['_id', 'Photo ID'],
    ['userId', 'User ID'],
    ['section', 'Section'],
    ['row', 'Row'],
    ['seat', 'Seat'],
    ['date', 'Taken'],
    ['hidden', 'Banned'],
    ['shares', 'Shares'],
    ['sharedURI', 'Shared photo'],
    ['sharedPlatforms', 'Shared on'],
    ['contactInfo', 'Contact'],
    ['overlay', 'Overlay'],
  ];

  return (
    // The viewport's height: the table scrolls inside it, so both its scrollbars are on screen
    // (a wide table scrolled sideways only at the foot of 50 rows read as cut; issue 28 point 5).
    <Stack gap="md" h={PAGE_HEIGHT} data-testid="event-users-page">
      <Group justify="space-between" wrap="wrap">
        <Group gap="md">
          <Title order={2}>{MSG.eventUsers.title}</Title>
          <EventSelector />
        </Group>
        <Group gap="xs">
          {slugDate && (
            <Button
              variant="default"
              component="a"
              href={eventUsersExportUrl({ slugDate, filter, sort })}
              download
              leftSection={<IconDownload size={16} />}
            >
              Export
            </Button>
          )}
          {mayWrite && (
            <>
              <Button
                variant="default"
                leftSection={<IconBan size={16} />}
                disabled={ban.disabled}
                onClick={() => void toggleBan(selected)}
              >
                {ban.label}
              </Button>
              <Button
                color="red"
                variant="light"
                leftSection={<IconTrash size={16} />}
                disabled={selected.length === 0}
                loading={deleting}
                onClick={() => void deletePhotos(selected, () => setSelectedIds([]))}
              >
                Delete
              </Button>
            </>
          )}
        </Group>
      </Group>

      <Paper withBorder p="sm" radius="md">
        {/* Labels in one line: a multi-select that grows with its picks grows downwards (at 1280 px
            the filters take two rows, Date and Reset on the second). */}
        <Group gap="sm" align="flex-start" wrap="wrap">
          <MultiSelect
            label="Section"
            w={180}
            searchable
            clearable
            data={options.data?.sections ?? []}
            value={filter.section}
            onChange={(section) => change({ section })}
            {...dropdown(350)}
          />
          <MultiSelect
            label="Row"
            w={150}
            searchable
            clearable
            data={options.data?.rows ?? []}
            value={filter.row}
            onChange={(row) => change({ row })}
            {...dropdown(200)}
          />
          <MultiSelect
            label="Seat"
            w={150}
            searchable
            clearable
            data={options.data?.seats ?? []}
            value={filter.seat}
            onChange={(seat) => change({ seat })}
            {...dropdown(200)}
          />
          <Select
            label="Banned"
            w={140}
            allowDeselect={false}
            data={[
              { value: 'all', label: 'All' },
              { value: 'banned', label: 'Banned' },
              { value: 'allowed', label: 'Not banned' },
            ]}
            value={filter.banned}
            onChange={(v) => change({ banned: v ?? 'all' })}
            {...dropdown(200)}
          />
          <MultiSelect
            label="Share platform"
            w={200}
            clearable
            data={platforms.data ?? []}
            value={filter.sharedPlatform}
            onChange={(sharedPlatform) => change({ sharedPlatform })}
            error={platforms.isError ? MSG.eventUsers.sharePlatformsFailed : undefined}
            {...dropdown(200)}
          />
          <DatePickerInput
            type="range"
            label={`Date (${tz})`}
            w={240}
            clearable
            placeholder="Any day"
            value={days}
            onChange={(v) => handleDays(v)}
          />
          <Button
            variant="subtle"
            style={{ alignSelf: 'flex-end' }}
            onClick={() => (setDays([null, null]), change(EMPTY_FILTER))}
          >
            Reset filters
          </Button>
        </Group>
      </Paper>

      {!event ? (
        <Text c="dimmed">{MSG.album.selectEvent}</Text>
      ) : users.isError ? (
        <Center py="xl">
          <Text c="red">{MSG.eventUsers.fetchFailed}</Text>
        </Center>
      ) : !users.data ? (
        <Center py="xl">
          <Loader aria-label="Loading event users" />
        </Center>
      ) : items.length === 0 ? (
        <Center py="xl">
          <Text c="dimmed">{MSG.eventUsers.noUsers}</Text>
        </Center>
      ) : (
        <ScrollArea type="auto" offsetScrollbars style={{ flex: 1, minHeight: 0 }} data-testid="event-users-scroll">
          <Table striped highlightOnHover withTableBorder stickyHeader fz="xs" verticalSpacing={4}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={36}>
                  <Checkbox
                    aria-label="Select all"
                    checked={allChecked}
                    indeterminate={!allChecked && selected.length > 0}
                    onChange={() => setSelectedIds(allChecked ? [] : items.map((s) => s._id))}
                  />
                </Table.Th>
                {columns.map(([field, label]) => (
                  <SortHeader
                    key={field}
                    field={field}
                    label={label}
                    sort={sort}
                    onSort={(s) => (setSort(s), setPage(1))}
                  />
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((s) => (
                <Table.Tr key={s._id} data-testid="event-user-row">
                  <Table.Td>
                    <Checkbox
                      aria-label={`Select ${s._id}`}
                      checked={selectedIds.includes(s._id)}
                      onChange={() => toggle(s._id)}
                    />
                  </Table.Td>
                  {/* A UUID on one line, its start shown and the whole on hover (never over 4 lines). */}
                  <Table.Td>
                    <Text ff="monospace" size="xs" maw={ID_WIDTH} truncate title={s._id}>
                      {s._id}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="xs" maw={USER_WIDTH} truncate title={s.userId}>
                      {s.userId}
                    </Text>
                  </Table.Td>
                  <Table.Td>{s.section}</Table.Td>
                  <Table.Td>{s.row}</Table.Td>
                  <Table.Td>{s.seat}</Table.Td>
                  <Table.Td style={NOWRAP}>{localTime(s.date, tz)}</Table.Td>
                  <Table.Td>
                    {s.hidden ? (
                      <Badge color="red" size="sm">
                        Banned
                      </Badge>
                    ) : (
                      'No'
                    )}
                  </Table.Td>
                  <Table.Td>
                    {s.postObj.map((p, i) => (
                      <Text key={i} size="xs">
                        {p.socialSource}
                        {p.userEmail ? ` · ${p.userEmail}` : ''}
                      </Text>
                    ))}
                  </Table.Td>
                  <Table.Td>
                    {s.sharedURI ? (
                      <Anchor href={s.sharedURI} target="_blank" rel="noreferrer" size="xs">
                        Open
                      </Anchor>
                    ) : null}
                  </Table.Td>
                  <Table.Td>{s.sharedPlatforms.join(', ')}</Table.Td>
                  <Table.Td>{s.contactInfo}</Table.Td>
                  {/* The overlay's name, not its storage key (stadiumcam/overlays/…png). */}
                  <Table.Td style={NOWRAP}>{s.overlay ? overlayLabel(s.overlay) : ''}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea>
      )}
      {total > EVENT_USERS_PAGE_SIZE && (
        <Group justify="space-between">
          <Text size="sm" c="dimmed">
            {total.toLocaleString('en-US')} photos
          </Text>
          <Pagination
            total={Math.ceil(total / EVENT_USERS_PAGE_SIZE)}
            value={page}
            onChange={(p) => (setPage(p), setSelectedIds([]))}
          />
        </Group>
      )}
    </Stack>
  );
}
