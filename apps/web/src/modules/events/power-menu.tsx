import { useState } from 'react';
import { ActionIcon, Button, Divider, Group, Modal, Popover, Radio, Stack, Text, Tooltip } from '@mantine/core';
import { IconPower } from '@tabler/icons-react';
import { EVENT_STATUSES, MSG, P, type EventStatus } from '@stadiumcam/contract';
import { ApiError } from '../../ui/api.ts';
import { showErrorModal, showSuccessModal } from '../../ui/feedback.tsx';
import { useCan } from '../auth/session.hooks.ts';
import { CameraPowerSection } from '../cameras/camera-power-section.tsx';
import { useSetEventStatus } from './events.hooks.ts';
import { clock, dayjs } from './event-time.ts';
import { useSelectedEvents } from './selection.store.ts';

const STATUS_LABEL: Record<EventStatus, string> = { pre: 'Pre', live: 'Live', post: 'Post' };

/** The header's power menu (spec 1 §2, §4): event status, then the camera switches. */
export function PowerMenu() {
  const allowed = useCan(P.POWER_BTN);
  if (!allowed) return null;
  return (
    <Popover position="bottom-end" width={300} shadow="md" withArrow>
      <Popover.Target>
        <Tooltip label="Power">
          <ActionIcon variant="subtle" aria-label="Power menu">
            <IconPower size={18} />
          </ActionIcon>
        </Tooltip>
      </Popover.Target>
      <Popover.Dropdown data-testid="power-menu">
        <Stack gap="sm">
          <EventStatusRadio />
          <Divider />
          <CameraPowerSection />
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}

/** Pre / live / post applied at once; live -> post before the scheduled end asks how. */
export function EventStatusRadio() {
  const { events } = useSelectedEvents();
  const setStatus = useSetEventStatus();
  const [earlyEnd, setEarlyEnd] = useState(false);
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

  const send = (eventStatus: EventStatus, endTime?: string) => {
    setStatus.mutate(
      { slugDate: event.slugDate, eventStatus, endTime },
      {
        onSuccess: () => {
          if (endTime) showSuccessModal(MSG.eventEndedNow);
        },
        onError: (err) => {
          if (endTime) showErrorModal(MSG.eventUpdateFailed);
          // A refused change (stale data, a rule) is not the same as a broken connection.
          else if (err instanceof ApiError && err.status >= 400 && err.status < 500) showErrorModal(MSG.eventDataOld);
          else showErrorModal();
        },
      },
    );
  };

  const handleChange = (value: string) => {
    const next = value as EventStatus;
    if (next === event.eventStatus) return;
    const endsLater = !!event.endTime && dayjs().isBefore(dayjs(event.endTime));
    if (event.eventStatus === 'live' && next === 'post' && endsLater) {
      setEarlyEnd(true);
      return;
    }
    send(next);
  };

  return (
    <>
      <Radio.Group
        label="Event status"
        value={event.eventStatus}
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
      <Modal
        opened={earlyEnd}
        onClose={() => setEarlyEnd(false)}
        title="End the event early?"
        centered
        data-testid="early-end-modal"
      >
        <Text size="sm">
          {`The event is scheduled to end at ${clock(event.endTime, event.timezone)}. Set its end time to now, or only switch it to post?`}
        </Text>
        <Group justify="flex-end" mt="lg">
          <Button
            variant="default"
            onClick={() => {
              setEarlyEnd(false);
              send('post');
            }}
          >
            Only set post
          </Button>
          <Button
            onClick={() => {
              setEarlyEnd(false);
              send('post', new Date().toISOString());
            }}
          >
            Set end time to now
          </Button>
        </Group>
      </Modal>
    </>
  );
}
