import { Badge, Button, Checkbox, Group, Modal, Select, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { MSG } from '@stadiumcam/contract';
import { showErrorModal, showSuccessModal } from '../../ui/feedback.tsx';
import { useCreateEvents, useUpdateEvent, type EventItem } from './events.hooks.ts';
import {
  TIME_STEPS,
  dayjs,
  endTimeError,
  formatDate,
  isNextDay,
  stepLabel,
  wallClock,
  zonedInstant,
} from './event-time.ts';

/** Spec 1 §3 Event form; days are the calendar's selected slots (create) or the event's day (update). */
export type EventFormValues = {
  eventTitle: string;
  startTime: string;
  endTime: string;
  isNextDay: boolean;
};

export type EventFormTarget =
  | { formMode: 'create'; selectedSlots: string[]; slug: string; timezone: string }
  | { formMode: 'update'; event: EventItem };

const nextDayOf = (ymd: string) => dayjs(ymd).add(1, 'day').format('YYYY-MM-DD');

function initialValues(target: EventFormTarget): EventFormValues {
  if (target.formMode === 'create') return { eventTitle: '', startTime: '', endTime: '', isNextDay: false };
  const { event } = target;
  return {
    eventTitle: event.title,
    startTime: event.startTime ? wallClock(event.startTime, event.timezone) : '',
    endTime: event.endTime ? wallClock(event.endTime, event.timezone) : '',
    isNextDay: isNextDay(event),
  };
}

type Props = {
  target: EventFormTarget | null;
  onClose: () => void;
  /** Days that were created; the calendar drops them from its selection. */
  onCreated: (days: string[]) => void;
};

/** The event create/update modal (spec 1 §2, §5). */
export function EventFormModal({ target, ...props }: Props) {
  if (!target) return null;
  // Another event starts from its own values; a create keeps its values while its days shrink.
  const key = target.formMode === 'create' ? 'create' : target.event.slugDate;
  return <EventForm key={key} target={target} {...props} />;
}

function EventForm({ target, onClose, onCreated }: Props & { target: EventFormTarget }) {
  const create = useCreateEvents();
  const update = useUpdateEvent();
  const form = useForm<EventFormValues>({
    initialValues: initialValues(target),
    validate: {
      eventTitle: (v) => (v.trim() ? null : MSG.events.eventNameRequired),
      startTime: (v) => (v ? null : MSG.events.startTimeRequired),
      endTime: (v, values) => endTimeError(values.startTime, v, values.isNextDay),
    },
  });

  const tz = target.formMode === 'create' ? target.timezone : target.event.timezone;
  const days = target.formMode === 'create' ? target.selectedSlots : [target.event.gameDate ?? ''];

  // An event moved to a minute off the grid (the early end) keeps its own time as an option.
  const options = (current: string) =>
    [...new Set([...TIME_STEPS, ...(current ? [current] : [])])].sort().map((t) => ({ value: t, label: stepLabel(t) }));

  const instants = (day: string, v: EventFormValues) => ({
    startTime: zonedInstant(day, v.startTime, tz),
    endTime: zonedInstant(v.isNextDay ? nextDayOf(day) : day, v.endTime, tz),
  });

  const handleSubmit = form.onSubmit((v) => {
    if (target.formMode === 'create') {
      const bodies = target.selectedSlots.map((day) => ({
        gameDate: day,
        slugDate: `${target.slug}-${day}`,
        title: v.eventTitle.trim(),
        ...instants(day, v),
      }));
      create.mutate(bodies, {
        onSuccess: (failed) => {
          onCreated(target.selectedSlots.filter((d) => !failed.includes(d)));
          if (failed.length) showErrorModal(MSG.events.eventCreateFailed);
          else onClose();
        },
        onError: () => showErrorModal(MSG.events.eventCreateFailed),
      });
      return;
    }
    const { event } = target;
    const timesChanged = form.isDirty('startTime') || form.isDirty('endTime') || form.isDirty('isNextDay');
    update.mutate(
      {
        slugDate: event.slugDate,
        data: {
          title: v.eventTitle.trim(),
          // Unchanged times are not sent: an early-ended event keeps its off-grid end.
          ...(timesChanged ? instants(event.gameDate ?? '', v) : {}),
        },
      },
      {
        onSuccess: () => {
          onClose();
          showSuccessModal(MSG.events.eventUpdated);
        },
        onError: () => showErrorModal(MSG.events.eventUpdateFailed),
      },
    );
  });

  const pending = create.isPending || update.isPending;
  return (
    <Modal
      opened
      onClose={onClose}
      title={target.formMode === 'create' ? 'Create event' : 'Update event'}
      centered
      size="lg"
      data-testid="event-form-modal"
    >
      <form onSubmit={handleSubmit} noValidate>
        <Stack>
          <div>
            <Text size="sm" fw={500} mb={4}>
              {days.length > 1 ? `Days (${days.length})` : 'Day'}
            </Text>
            <Group gap={6}>
              {days.map((d) => (
                <Badge key={d} variant="light" size="lg" radius="sm">
                  {`${dayjs(d).format('ddd')} ${formatDate(d)}`}
                </Badge>
              ))}
            </Group>
          </div>
          <TextInput label="Event name" data-autofocus {...form.getInputProps('eventTitle')} />
          <Group grow align="flex-start">
            <Select
              label="Start time"
              placeholder="Pick a time"
              searchable
              data={options(form.values.startTime)}
              maxDropdownHeight={240}
              {...form.getInputProps('startTime')}
            />
            <Select
              label="End time"
              placeholder="Pick a time"
              searchable
              data={options(form.values.endTime)}
              maxDropdownHeight={240}
              {...form.getInputProps('endTime')}
            />
          </Group>
          <Checkbox
            label="Next Day"
            description="The event ends after midnight"
            {...form.getInputProps('isNextDay', { type: 'checkbox' })}
          />
          <Text size="xs" c="dimmed">{`Times are in ${tz}.`}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={pending}>
              {target.formMode === 'create' ? 'Create' : 'Update'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
