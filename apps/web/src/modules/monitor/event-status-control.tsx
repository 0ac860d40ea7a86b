import { useState } from 'react';
import { Group, Loader, SegmentedControl, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { EVENT_STATUSES, P, eventsRoutes, type EventStatus } from '@stadiumcam/contract';
import { api } from '../../ui/api.ts';
import { showErrorModal } from '../../ui/feedback.tsx';
import { useCan } from '../auth/session.hooks.ts';
import { setSelectedEvents, useSelectedEvents } from '../events/selection.store.ts';
import { useMonitorEvent } from './monitor-event.ts';

const STATUS_COLOR: Record<EventStatus, string> = { pre: 'yellow', live: 'red', post: 'gray' };

/**
 * pre / live / post of the monitored event (spec 1 §4): applies at once, reverts with the
 * generic error modal on failure. Read-only for operators who may not change it.
 */
export function EventStatusControl() {
  const { event } = useMonitorEvent();
  const { events } = useSelectedEvents();
  const canChange = useCan([P.EVENT_WRITE, P.POWER_BTN], { or: true });
  const [pending, setPending] = useState<EventStatus | null>(null);
  const update = useMutation({
    mutationFn: (eventStatus: EventStatus) =>
      api(eventsRoutes.update, { body: { slugDate: event!.slugDate, data: { eventStatus } } }),
    onMutate: (status) => setPending(status),
    onSuccess: (saved) => {
      setSelectedEvents(
        events.map((e) => (e.slugDate === saved.slugDate ? { ...e, eventStatus: saved.eventStatus } : e)),
      );
    },
    onError: () => showErrorModal(),
    onSettled: () => setPending(null),
  });
  if (!event || event.template) return null;
  const value = pending ?? event.eventStatus;

  return (
    <Group gap={6} wrap="nowrap">
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        Event
      </Text>
      <SegmentedControl
        size="xs"
        aria-label="Event status"
        data-testid="event-status"
        value={value}
        color={STATUS_COLOR[value]}
        disabled={!canChange || update.isPending}
        onChange={(v) => update.mutate(v as EventStatus)}
        data={EVENT_STATUSES.map((s) => ({ value: s, label: s }))}
      />
      {update.isPending && <Loader size="xs" />}
    </Group>
  );
}
