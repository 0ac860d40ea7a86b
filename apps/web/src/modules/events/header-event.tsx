import type { ReactNode } from 'react';
import { Group, Text, Tooltip } from '@mantine/core';
import { MSG } from '@stadiumcam/contract/lite';
import { EventSelector, usePageHasEventSelector } from './event-selector.tsx';
import { useEventSelectionSync } from './events.hooks.ts';
import { gameDateStr, timeRange } from './event-time.ts';
import { useSelectedEvents } from './selection.store.ts';
import { StatusDot } from './status-dot.tsx';

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
        {events.length > 1 ? `Selected: ${events.length}` : MSG.events.masterTemplate}
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
