import { Button, Group, Modal, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { MSG, ShareSnapshotsEmailSchema } from '@stadiumcam/contract';
import { showErrorModal, showSuccessModal } from '../../ui/feedback.tsx';
import { useShareByEmail } from './snapshots.hooks.ts';

const fieldError = (key: 'emailAddress' | 'emailSubject' | 'emailBodyText') => (value: string) => {
  const r = ShareSnapshotsEmailSchema.shape[key].safeParse(value);
  return r.success ? null : (r.error.issues[0]?.message ?? 'Invalid value');
};

/** E-mail share of the selected photos' links (spec 1 §5: address, subject and message required). */
export function ShareEmailModal({ links, opened, onClose }: { links: string[]; opened: boolean; onClose: () => void }) {
  const share = useShareByEmail();
  const form = useForm({
    mode: 'controlled',
    initialValues: { emailAddress: '', emailSubject: '', emailBodyText: '' },
    validate: {
      emailAddress: fieldError('emailAddress'),
      emailSubject: fieldError('emailSubject'),
      emailBodyText: fieldError('emailBodyText'),
    },
  });

  const handleSubmit = form.onSubmit((values) => {
    share.mutate(
      { ...values, snapshots: links },
      {
        onSuccess: () => {
          onClose();
          form.reset();
          showSuccessModal(MSG.album.emailSent);
        },
        // The form keeps what the operator typed.
        onError: () => showErrorModal(MSG.album.emailFailed),
      },
    );
  });

  return (
    <Modal opened={opened} onClose={onClose} title="Share by e-mail" centered size="lg">
      <form onSubmit={handleSubmit} noValidate>
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            {links.length} photo link(s) will be sent.
          </Text>
          <TextInput label="E-mail address" type="email" required {...form.getInputProps('emailAddress')} />
          <TextInput label="Subject" required {...form.getInputProps('emailSubject')} />
          <Textarea
            label="Message"
            required
            autosize
            minRows={4}
            maxRows={10}
            {...form.getInputProps('emailBodyText')}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={share.isPending}>
              Send
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
