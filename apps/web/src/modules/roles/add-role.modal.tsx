import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { MSG, RoleNameSchema } from '@stadiumcam/contract';
import { showErrorModal } from '../../ui/feedback.tsx';

type Props = { opened: boolean; existing: string[]; onClose: () => void; onAdd: (name: string) => void };

/** "Add New Role": asks a unique name; the role stays unsaved until Save (spec 3 §2.2, §5). */
export function AddRoleModal({ opened, existing, onClose, onAdd }: Props) {
  return (
    <Modal opened={opened} onClose={onClose} title="Add New Role" centered size="sm">
      <AddRoleForm existing={existing} onClose={onClose} onAdd={onAdd} />
    </Modal>
  );
}

function AddRoleForm({ existing, onClose, onAdd }: Omit<Props, 'opened'>) {
  const form = useForm({
    initialValues: { name: '' },
    validate: {
      name: (v) => {
        const r = RoleNameSchema.safeParse(v);
        return r.success ? null : (r.error.issues[0]?.message ?? 'Role name is required');
      },
    },
  });

  const handleSubmit = form.onSubmit(({ name }) => {
    const trimmed = name.trim();
    // Names differing only in case would confuse whoever assigns roles.
    if (existing.some((e) => e.toLowerCase() === trimmed.toLowerCase())) {
      form.setFieldError('name', MSG.roles.roleExistsTitle);
      showErrorModal(MSG.roles.roleExistsText, MSG.roles.roleExistsTitle);
      return;
    }
    onAdd(trimmed);
  });

  return (
    <form onSubmit={handleSubmit} noValidate>
      <Stack gap="sm">
        <TextInput label="Role name" required data-autofocus {...form.getInputProps('name')} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit">Add</Button>
        </Group>
      </Stack>
    </form>
  );
}
