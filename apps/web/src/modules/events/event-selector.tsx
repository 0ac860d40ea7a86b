import { useEffect, useMemo, useState, useSyncExternalStore, type MouseEvent } from 'react';
import {
  ActionIcon,
  Button,
  Center,
  Checkbox,
  Group,
  Loader,
  Modal,
  ScrollArea,
  Table,
  Text,
  Tooltip,
} from '@mantine/core';
import { IconCalendarEvent, IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { useLocation } from 'react-router';
import { MSG } from '@stadiumcam/contract/lite';
import { isShiftHeld } from '../../ui/shift-key.ts';
import { toSelected, useEventList, type EventItem } from './events.hooks.ts';
import { gameDateStr, isFutureEvent, timeRange } from './event-time.ts';
import { StatusDot } from './status-dot.tsx';
import { setSelectedEvents, useSelectedEvents } from './selection.store.ts';

type Props = {
  /** Several events may be selected (checkbox list, shift range, select all). */
  multiple?: boolean;
  /** Offers the 'Master Template' button. */
  allowTemplate?: boolean;
  /** The next arrow may step to a future event (the modal lists every event). */
  allowFuture?: boolean;
  /** The header's compact selector; a page's own selector hides it. */
  placement?: 'page' | 'header';
};

// How many pages show their own selector right now: the header then shows only the date.
let pageSelectors = 0;
const pageSelectorListeners = new Set<() => void>();
const countPageSelector = (delta: number) => {
  pageSelectors += delta;
  pageSelectorListeners.forEach((l) => l());
};

type Draft = { page: string; slugDates: string[]; anchor: number | null };
/**
 * The open modal and its unapplied choice, per placement, kept outside the component: each
 * template screen mounts its own selector, yet /template/colors and /template/share are one
 * page (spec 1 §2: the first path segment), so a remount within the page keeps them.
 */
const kept: Record<'page' | 'header', { page: string; opened: boolean; draft: Draft | null }> = {
  page: { page: '', opened: false, draft: null },
  header: { page: '', opened: false, draft: null },
};
const keep = (placement: 'page' | 'header', patch: Partial<(typeof kept)['page']>) => {
  kept[placement] = { ...kept[placement], ...patch };
};
const firstSegment = (pathname: string) => pathname.split('/')[1] ?? '';
/** What is kept belongs to one page: a selector that sees another page forgets it. */
function useKeptForPage(placement: 'page' | 'header') {
  const page = firstSegment(useLocation().pathname);
  useEffect(() => {
    for (const k of Object.values(kept)) if (k.page !== page) Object.assign(k, { page, opened: false, draft: null });
  }, [page]);
  return { page, kept: kept[placement].page === page ? kept[placement] : undefined };
}

/** True while the current page shows its own event selector. */
export const usePageHasEventSelector = () =>
  useSyncExternalStore(
    (l) => {
      pageSelectorListeners.add(l);
      return () => pageSelectorListeners.delete(l);
    },
    () => pageSelectors > 0,
  );

/**
 * The shared event selector (spec 1 §2, spec 2 §2): a button with previous/next arrows and a
 * modal. It writes the app-wide selection.
 */
export function EventSelector({
  multiple = false,
  allowTemplate = false,
  allowFuture = false,
  placement = 'page',
}: Props) {
  const { events: selected } = useSelectedEvents();
  const list = useEventList();
  const restore = useKeptForPage(placement);
  const [opened, setOpenedState] = useState(() => restore.kept?.opened ?? false);
  const setOpened = (o: boolean) => {
    keep(placement, { page: restore.page, opened: o });
    setOpenedState(o);
  };
  const header = placement === 'header';

  useEffect(() => {
    if (header) return;
    countPageSelector(1);
    return () => countPageSelector(-1);
  }, [header]);

  // Dated events in calendar order; the arrows step through them.
  const dated = useMemo(() => (list.data ?? []).filter((e) => !e.template), [list.data]);
  const template = list.data?.find((e) => e.template);

  const single = selected.length === 1 && !selected[0].template ? selected[0] : undefined;
  const index = single ? dated.findIndex((e) => e.slugDate === single.slugDate) : -1;
  const prev = index > 0 ? dated[index - 1] : undefined;
  const next = index >= 0 ? dated[index + 1] : undefined;
  const nextAllowed = !!next && (allowFuture || !isFutureEvent(next));

  const label =
    selected.length > 1
      ? `Selected: ${selected.length}`
      : selected[0]?.template
        ? MSG.events.masterTemplate
        : selected[0]
          ? gameDateStr(selected[0])
          : 'Select event';

  const step = (e: EventItem | undefined) => e && setSelectedEvents([toSelected(e)]);

  return (
    <>
      <Group gap={4} wrap="nowrap" data-testid={header ? 'header-event-selector' : 'event-selector'}>
        <ActionIcon
          variant={header ? 'subtle' : 'default'}
          size={header ? 'md' : 'lg'}
          aria-label="Previous event"
          disabled={!prev}
          onClick={() => step(prev)}
        >
          <IconChevronLeft size={16} />
        </ActionIcon>
        <Tooltip
          label={single ? (header ? timeRange(single) : `${single.title} · ${timeRange(single)}`) : 'Choose events'}
          withArrow
          disabled={header && !single}
        >
          <Button
            variant={header ? 'subtle' : 'default'}
            color={header ? 'gray' : undefined}
            size={header ? 'compact-sm' : 'sm'}
            leftSection={<IconCalendarEvent size={16} />}
            onClick={() => setOpened(true)}
            data-testid="event-selector-button"
            miw={header ? undefined : 170}
          >
            {label}
          </Button>
        </Tooltip>
        <ActionIcon
          variant={header ? 'subtle' : 'default'}
          size={header ? 'md' : 'lg'}
          aria-label="Next event"
          disabled={!nextAllowed}
          onClick={() => step(next)}
        >
          <IconChevronRight size={16} />
        </ActionIcon>
      </Group>
      <EventSelectorModal
        placement={placement}
        opened={opened}
        onClose={() => setOpened(false)}
        multiple={multiple}
        template={allowTemplate ? template : undefined}
        events={dated}
        loading={list.isPending}
        failed={list.isError}
      />
    </>
  );
}

type ModalProps = {
  placement: 'page' | 'header';
  opened: boolean;
  onClose: () => void;
  multiple: boolean;
  template: EventItem | undefined;
  events: EventItem[];
  loading: boolean;
  failed: boolean;
};

function EventSelectorModal({ placement, opened, onClose, multiple, template, events, loading, failed }: ModalProps) {
  const { events: selected, slugDates } = useSelectedEvents();
  const { page, kept: restored } = useKeptForPage(placement);
  // Newest first: the events an operator works on are at the top.
  const rows = useMemo(() => [...events].reverse(), [events]);
  // The pending choice belongs to the page it was made on: another page starts afresh.
  const [draft, setDraftState] = useState<Draft | null>(() => restored?.draft ?? null);
  const setDraft = (d: Draft | null) => {
    keep(placement, { page, draft: d });
    setDraftState(d);
  };
  const pending = draft?.page === page ? draft.slugDates : null;
  const anchor = draft?.page === page ? draft.anchor : null;
  const setPending = (slugDates: string[] | null, at: number | null = null) =>
    setDraft(slugDates ? { page, slugDates, anchor: at } : null);

  const chosen = pending ?? slugDates.filter((s) => rows.some((e) => e.slugDate === s));
  // Without a selection there is nothing to go back to: the modal stays until one is applied.
  const closable = selected.length > 0;

  const handleClose = () => {
    if (!closable) return;
    setPending(null);
    onClose();
  };

  const handleRow = (i: number, ev: MouseEvent) => {
    const e = rows[i];
    if (!multiple) {
      setPending([e.slugDate], i);
    } else if ((ev.shiftKey || isShiftHeld()) && anchor !== null) {
      const [from, to] = anchor < i ? [anchor, i] : [i, anchor];
      const range = rows.slice(from, to + 1).map((r) => r.slugDate);
      setPending([...new Set([...chosen, ...range])], i);
    } else {
      setPending(chosen.includes(e.slugDate) ? chosen.filter((s) => s !== e.slugDate) : [...chosen, e.slugDate], i);
    }
  };

  const allChosen = rows.length > 0 && rows.every((e) => chosen.includes(e.slugDate));
  const handleAll = () => setPending(allChosen ? [] : rows.map((e) => e.slugDate), anchor);

  const apply = (items: EventItem[]) => {
    setSelectedEvents(items.map(toSelected));
    setPending(null);
    onClose();
  };
  const handleApply = () => apply(rows.filter((e) => chosen.includes(e.slugDate)));

  let body;
  if (loading) {
    body = (
      <Center h={120}>
        <Loader />
      </Center>
    );
  } else if (failed) {
    body = (
      <Center h={120}>
        <Text c="red">{MSG.events.eventsFetchFailed}</Text>
      </Center>
    );
  } else if (!rows.length) {
    body = (
      <Center h={120}>
        <Text c="dimmed">{MSG.events.noEvents}</Text>
      </Center>
    );
  } else {
    // Its own component: the modal renders it only while open (the header's selector is on
    // every page, and each row formats its times in the event's zone).
    body = (
      <EventTable
        rows={rows}
        chosen={chosen}
        multiple={multiple}
        allChosen={allChosen}
        onRow={handleRow}
        onAll={handleAll}
      />
    );
  }

  return (
    <Modal
      opened={opened}
      onClose={handleClose}
      title={multiple ? 'Select events' : 'Select an event'}
      size="xl"
      centered
      closeOnClickOutside={closable}
      closeOnEscape={closable}
      withCloseButton={closable}
      data-testid="event-selector-modal"
    >
      {body}
      <Group justify="space-between" mt="md">
        <Text size="sm" c="dimmed">
          {multiple ? `${chosen.length} selected · Shift-click selects a range` : ''}
        </Text>
        <Group gap="xs">
          {template && (
            <Button variant="default" onClick={() => apply([template])}>
              {MSG.events.masterTemplate}
            </Button>
          )}
          <Button onClick={handleApply} disabled={!chosen.length}>
            Apply
          </Button>
        </Group>
      </Group>
    </Modal>
  );
}

function EventTable(props: {
  rows: EventItem[];
  chosen: string[];
  multiple: boolean;
  allChosen: boolean;
  onRow: (i: number, ev: MouseEvent) => void;
  onAll: () => void;
}) {
  const { rows, chosen, multiple, allChosen, onRow: handleRow, onAll: handleAll } = props;
  return (
    <ScrollArea.Autosize mah="60vh" type="auto">
      <Table highlightOnHover verticalSpacing={6} stickyHeader data-testid="event-selector-list">
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={40}>
              {multiple && (
                <Checkbox
                  aria-label="Select all"
                  checked={allChosen}
                  indeterminate={!allChosen && chosen.length > 0}
                  onChange={handleAll}
                />
              )}
            </Table.Th>
            <Table.Th>Name</Table.Th>
            <Table.Th>Date</Table.Th>
            <Table.Th>Time</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody style={{ userSelect: 'none' }}>
          {rows.map((e, i) => {
            const on = chosen.includes(e.slugDate);
            return (
              <Table.Tr
                key={e.slugDate}
                data-slugdate={e.slugDate}
                onClick={(ev) => handleRow(i, ev)}
                style={{ cursor: 'pointer' }}
                bg={on ? 'var(--mantine-primary-color-light)' : undefined}
              >
                <Table.Td>
                  {/* The row handles the click; the checkbox only shows the state. */}
                  <Checkbox aria-label={e.title} checked={on} onChange={() => undefined} />
                </Table.Td>
                <Table.Td>
                  <Group gap={8} wrap="nowrap">
                    <StatusDot status={e.eventStatus} />
                    <Text size="sm" truncate maw={260}>
                      {e.title}
                    </Text>
                  </Group>
                </Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{gameDateStr(e)}</Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{timeRange(e)}</Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </ScrollArea.Autosize>
  );
}
