import { useState } from 'react';
import { ActionIcon, Button, Divider, Group, Modal, Popover, Radio, Stack, Text, Tooltip } from '@mantine/core';
import { IconPower } from '@tabler/icons-react';
import { EVENT_STATUSES, MSG, P, type EventStatus } from '@stadiumcam/contract';
import { useCan } from '../auth/session.hooks.ts';
import { CameraPowerSection } from '../cameras/camera-power-section.tsx';
import { useSetEventStatus } from './events.hooks.ts';
import { GoLiveModal, type GoLiveTarget } from './go-live.modal.tsx';
import { dayjs, eventClock, isTomorrow } from './event-time.ts';
import { useSelectedEvents, type SelectedEvent } from './selection.store.ts';

const STATUS_LABEL: Record<EventStatus, string> = { pre: 'Pre', live: 'Live', post: 'Post' };

/** The header's power menu (spec 1 §2, §4): event status, then the camera switches. */
export function PowerMenu() {
  const allowed = useCan(P.POWER_BTN);
  // Outside the popover: the choice modal must outlive the menu closing under it.
  const [earlyEnd, setEarlyEnd] = useState<SelectedEvent | null>(null);
  const [goLive, setGoLive] = useState<GoLiveTarget | null>(null);
  // Controlled, so that the menu closes when the early-end question or the checklist opens over it.
  const [opened, setOpened] = useState(false);
  if (!allowed) return null;
  return (
    <>
      <Popover position="bottom-end" width={300} shadow="md" withArrow opened={opened} onChange={setOpened}>
        <Popover.Target>
          <Tooltip label="Power">
            <ActionIcon variant="subtle" aria-label="Power menu" onClick={() => setOpened((o) => !o)}>
              <IconPower size={18} />
            </ActionIcon>
          </Tooltip>
        </Popover.Target>
        <Popover.Dropdown data-testid="power-menu">
          <Stack gap="sm">
            <EventStatusRadio
              onEarlyEnd={(event) => {
                setOpened(false);
                setEarlyEnd(event);
              }}
              onGoLive={(event) => {
                setOpened(false);
                setGoLive(event);
              }}
            />
            <Divider />
            <CameraPowerSection />
          </Stack>
        </Popover.Dropdown>
      </Popover>
      <EarlyEndModal event={earlyEnd} onClose={() => setEarlyEnd(null)} />
      <GoLiveModal target={goLive} onClose={() => setGoLive(null)} />
    </>
  );
}

/**
 * Pre / live / post of the selected event, applied at once. Live -> post before the
 * scheduled end asks how to end it: through `onEarlyEnd` when the caller shows the question
 * itself (the power menu, whose popover closes under a modal), else in its own modal. Going
 * live shows the pre-live checklist first (`onGoLive` likewise, else its own dialog).
 */
export function EventStatusRadio({
  onEarlyEnd,
  onGoLive,
}: {
  onEarlyEnd?: (event: SelectedEvent) => void;
  onGoLive?: (event: SelectedEvent) => void;
}) {
  const { events } = useSelectedEvents();
  const setStatus = useSetEventStatus();
  const [earlyEnd, setEarlyEnd] = useState<SelectedEvent | null>(null);
  const [goLive, setGoLive] = useState<GoLiveTarget | null>(null);
  // The choice shows at once, in the click's own render: the list's optimistic update reaches
  // the selection only after an await, a render and an effect, and a radio that stays on the
  // old value meanwhile reads as a lost click (a busy CI box lost one that way).
  const [chosen, setChosen] = useState<EventStatus | null>(null);
  const event = events.length === 1 && !events[0].template ? events[0] : undefined;

  if (!event) {
    return (
      <Stack gap={4}>
        <Text fw={600} size="sm">
          Event status
        </Text>
        <Text size="sm" c="dimmed">
          Select a single dated event to change its status.
        </Text>
      </Stack>
    );
  }

  const handleChange = (value: string) => {
    const next = value as EventStatus;
    if (next === event.eventStatus) return;
    const endsLater = !!event.endTime && dayjs().isBefore(dayjs(event.endTime));
    if (event.eventStatus === 'live' && next === 'post' && endsLater) (onEarlyEnd ?? setEarlyEnd)(event);
    else if (next === 'live') (onGoLive ?? setGoLive)(event);
    else {
      setChosen(next);
      setStatus.mutate({ slugDate: event.slugDate, eventStatus: next }, { onSettled: () => setChosen(null) });
    }
  };

  return (
    <>
      <Radio.Group
        label="Event status"
        value={chosen ?? event.eventStatus}
        onChange={handleChange}
        data-testid="event-status"
        styles={{ label: { fontWeight: 600, marginBottom: 6 } }}
      >
        <Group gap="lg">
          {EVENT_STATUSES.map((s) => (
            <Radio key={s} value={s} label={STATUS_LABEL[s]} disabled={setStatus.isPending} />
          ))}
        </Group>
      </Radio.Group>
      {!onEarlyEnd && <EarlyEndModal event={earlyEnd} onClose={() => setEarlyEnd(null)} />}
      {!onGoLive && <GoLiveModal target={goLive} onClose={() => setGoLive(null)} />}
    </>
  );
}

/** Spec 1 §4: set the end time to now (then reload), or only set post. */
function EarlyEndModal({ event, onClose }: { event: SelectedEvent | null; onClose: () => void }) {
  const setStatus = useSetEventStatus();
  const handleChoice = (endNow: boolean) => {
    if (!event) return;
    onClose();
    setStatus.mutate({
      slugDate: event.slugDate,
      eventStatus: 'post',
      endTime: endNow ? new Date().toISOString() : undefined,
    });
  };
  return (
    <Modal opened={!!event} onClose={onClose} title={MSG.night.earlyEndTitle} centered data-testid="early-end-modal">
      <Text size="sm" data-testid="early-end-text">
        {event?.endTime &&
          MSG.night.earlyEnd(
            event.title,
            eventClock(event.endTime, event.timezone),
            isTomorrow(event.endTime, event.timezone),
          )}
      </Text>
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={() => handleChoice(false)}>
          Only set post
        </Button>
        <Button onClick={() => handleChoice(true)}>Set end time to now</Button>
      </Group>
    </Modal>
  );
}
