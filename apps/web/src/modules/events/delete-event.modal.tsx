import { Button, Code, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { MSG } from '@stadiumcam/contract';
import { showErrorModal, showSuccessModal } from '../../ui/feedback.tsx';
import { useDeleteEvent, type EventItem } from './events.hooks.ts';
import { formatDate } from './event-time.ts';

/** Deleting an event is confirmed by typing its slug date (spec 1 §5). */
export function DeleteEventModal({ event, onClose }: { event: EventItem | null; onClose: () => void }) {
  if (!event) return null;
  return <DeleteEventForm key={event.slugDate} event={event} onClose={onClose} />;
}

function DeleteEventForm({ event, onClose }: { event: EventItem; onClose: () => void }) {
  const remove = useDeleteEvent();
  const form = useForm({
    initialValues: { slugDate: '' },
    validate: { slugDate: (v) => (v.trim() === event.slugDate ? null : MSG.events.wrongSlugDate) },
  });

  const handleSubmit = form.onSubmit(() => {
    remove.mutate(event.slugDate, {
      onSuccess: () => {
        onClose();
        showSuccessModal(MSG.events.eventDeleted);
      },
      onError: () => showErrorModal(MSG.events.eventDeleteFailed),
    });
  });

  return (
    <Modal opened onClose={onClose} title="Delete event" centered data-testid="delete-event-modal">
      <form onSubmit={handleSubmit} noValidate>
        <Stack>
          <Text size="sm">
            {`"${event.title}" of ${event.gameDate ? formatDate(event.gameDate) : ''} will be deleted with all its photos. This cannot be undone.`}
          </Text>
          <Text size="sm">
            Type <Code>{event.slugDate}</Code> to confirm.
          </Text>
          <TextInput
            label="Slug date"
            placeholder={event.slugDate}
            data-autofocus
            {...form.getInputProps('slugDate')}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" color="red" loading={remove.isPending}>
              Delete
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
