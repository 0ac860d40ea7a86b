import type { ReactNode } from 'react';
import { Box, Group, Text, Tooltip } from '@mantine/core';
import { MSG, type EventStatus } from '@stadiumcam/contract';
import { EventSelector, usePageHasEventSelector } from './event-selector.tsx';
import { useEventSelectionSync } from './events.hooks.ts';
import { gameDateStr, timeRange } from './event-time.ts';
import { useSelectedEvents } from './selection.store.ts';

const DOT: Record<EventStatus, { color: string; label: string }> = {
  live: { color: 'var(--mantine-color-red-6)', label: 'active' },
  pre: { color: 'var(--mantine-color-yellow-5)', label: 'semi-active' },
  post: { color: 'var(--mantine-color-gray-6)', label: 'off' },
};

/** Status dot (spec 1 §4): active while live, semi-active while pre, off for post. */
export function StatusDot({ status }: { status: EventStatus }) {
  const live = status === 'live';
  return (
    <Box
      data-testid="status-dot"
      data-state={DOT[status].label}
      aria-label={`Event ${status}`}
      w={10}
      h={10}
      style={{
        borderRadius: '50%',
        flex: 'none',
        background: DOT[status].color,
        boxShadow: live ? `0 0 0 3px color-mix(in srgb, ${DOT.live.color} 35%, transparent)` : undefined,
      }}
    />
  );
}

/**
 * The header's event (spec 1 §2): status dot, name and the date with the time range as its
 * tooltip. The date is the event selector button, unless the page shows its own selector.
 */
export function HeaderEvent() {
  useEventSelectionSync();
  const { events } = useSelectedEvents();
  const pageHasSelector = usePageHasEventSelector();
  const single = events.length === 1 && !events[0].template ? events[0] : undefined;

  let date: ReactNode = null;
  if (!pageHasSelector) {
    date = <EventSelector placement="header" allowTemplate allowFuture />;
  } else if (single) {
    date = (
      <Tooltip label={timeRange(single) || 'No times set'} withArrow>
        <Text size="sm" c="dimmed" data-testid="header-event-date" style={{ whiteSpace: 'nowrap', cursor: 'default' }}>
          {gameDateStr(single)}
        </Text>
      </Tooltip>
    );
  } else if (events.length) {
    date = (
      <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
        {events.length > 1 ? `Selected: ${events.length}` : MSG.masterTemplate}
      </Text>
    );
  }

  return (
    <Group gap={8} wrap="nowrap" data-testid="header-event" miw={0}>
      {single && <StatusDot status={single.eventStatus} />}
      {single && (
        <Text fw={600} truncate maw={280} title={single.title} data-testid="header-event-title">
          {single.title}
        </Text>
      )}
      {date}
    </Group>
  );
}
