import { useState } from 'react';
import { ActionIcon, Button, CopyButton, Group, Modal, MultiSelect, Stack, TextInput, Tooltip } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconCheck, IconCopy, IconRefresh, IconX } from '@tabler/icons-react';
import { MSG, PasswordSchema, UsernameSchema, type User } from '@stadiumcam/contract';
import { ApiError, errorText } from '../../ui/api.ts';
import { showErrorModal, showSuccessModal } from '../../ui/feedback.tsx';
import { useRoles } from '../roles/roles.hooks.ts';
import { randomPassword } from './random-password.ts';
import { useCreateUser, useUpdateUser, useUsernameTaken } from './users.hooks.ts';

export type UserModalState = { mode: 'create' } | { mode: 'update'; user: User } | null;

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const firstIssue = (r: { success: boolean; error?: { issues: { message: string }[] } }) =>
  r.success ? null : (r.error?.issues[0]?.message ?? MSG.users.userNameRule);

/** The one create/update modal of the Users page (spec 3 §2.1, §4, §5). */
export function UserModal({ state, onClose }: { state: UserModalState; onClose: () => void }) {
  return (
    <Modal
      opened={state !== null}
      onClose={onClose}
      title={state?.mode === 'update' ? 'Edit user' : 'Create new user'}
      centered
      size="md"
      data-testid="user-modal"
    >
      {state && <UserForm state={state} onDone={onClose} />}
    </Modal>
  );
}

function UserForm({ state, onDone }: { state: NonNullable<UserModalState>; onDone: () => void }) {
  const isCreate = state.mode === 'create';
  const user = state.mode === 'update' ? state.user : null;
  const roles = useRoles();
  const isTaken = useUsernameTaken();
  const create = useCreateUser();
  const update = useUpdateUser();
  const [checking, setChecking] = useState(false);

  const form = useForm({
    initialValues: {
      username: user?.username ?? '',
      email: user?.email ?? '',
      // Update keeps the password unless the admin generates a new one.
      password: isCreate ? randomPassword() : '',
      roles: user?.roles ?? [],
    },
    validate: {
      username: (v) => (isCreate ? firstIssue(UsernameSchema.safeParse(v)) : null),
      email: (v) => (!v.trim() ? 'E-mail is required' : EMAIL_RE.test(v.trim()) ? null : 'Invalid e-mail address'),
      password: (v) => (!isCreate && v === '' ? null : firstIssue(PasswordSchema.safeParse(v))),
    },
  });

  const checkTaken = async (username: string): Promise<boolean> => {
    setChecking(true);
    try {
      const taken = await isTaken(username);
      if (taken) form.setFieldError('username', MSG.users.userNameTaken);
      return taken;
    } catch {
      // The server checks again on create; a failed look-up must not block the form.
      return false;
    } finally {
      setChecking(false);
    }
  };

  const handleUsernameBlur = () => {
    const parsed = UsernameSchema.safeParse(form.values.username);
    if (parsed.success) void checkTaken(parsed.data);
  };

  const handleSubmit = form.onSubmit(async (values) => {
    const email = values.email.trim();
    if (isCreate) {
      const username = UsernameSchema.parse(values.username);
      if (await checkTaken(username)) return;
      create.mutate(
        { username, email, password: values.password, roles: values.roles },
        {
          onSuccess: () => {
            onDone();
            showSuccessModal(MSG.users.userCreated);
          },
          onError: (err) => {
            if (err instanceof ApiError && err.status === 409) form.setFieldError('username', MSG.users.userNameTaken);
            else showErrorModal(MSG.users.userCreateFailed);
          },
        },
      );
    } else if (user) {
      update.mutate(
        { _id: user._id, email, roles: values.roles, ...(values.password ? { password: values.password } : {}) },
        {
          onSuccess: () => {
            onDone();
            showSuccessModal(MSG.users.userUpdated);
          },
          onError: (err) => showErrorModal(errorText(err, MSG.common.genericError)),
        },
      );
    }
  });

  const password = form.values.password;
  const roleOptions = [...new Set([...(roles.data ?? []).map((r) => r.name), ...form.values.roles])];

  return (
    <form onSubmit={handleSubmit} noValidate>
      <Stack gap="sm">
        <TextInput
          label="User Name"
          required={isCreate}
          disabled={!isCreate}
          autoComplete="off"
          autoCapitalize="none"
          data-autofocus
          description={isCreate ? 'At least 6 characters: lower-case letters, digits and . _ - @' : undefined}
          {...form.getInputProps('username')}
          // Names are stored lower-case; show what will be saved.
          onChange={(e) => form.setFieldValue('username', e.currentTarget.value.toLowerCase())}
          onBlur={isCreate ? handleUsernameBlur : undefined}
        />
        <TextInput label="E-mail" type="email" required autoComplete="off" {...form.getInputProps('email')} />
        <Group gap="xs" align="flex-end" wrap="nowrap">
          <TextInput
            label="Password"
            required={isCreate}
            readOnly
            flex={1}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', letterSpacing: 1 } }}
            placeholder={isCreate ? undefined : 'Unchanged'}
            description={
              isCreate ? 'Generated at random: hand it over to the user.' : 'Leave empty to keep the current password.'
            }
            {...form.getInputProps('password')}
          />
          <Group gap={4} wrap="nowrap" pb={1}>
            <Tooltip label="Generate a new password">
              <ActionIcon
                variant="default"
                size="lg"
                aria-label="Generate password"
                onClick={() => form.setFieldValue('password', randomPassword())}
              >
                <IconRefresh size={18} />
              </ActionIcon>
            </Tooltip>
            <CopyButton value={password}>
              {({ copied, copy }) => (
                <Tooltip label={copied ? 'Copied!' : 'Copy password'}>
                  <ActionIcon
                    variant="default"
                    size="lg"
                    aria-label="Copy password"
                    onClick={copy}
                    disabled={!password}
                  >
                    {copied ? <IconCheck size={18} /> : <IconCopy size={18} />}
                  </ActionIcon>
                </Tooltip>
              )}
            </CopyButton>
            {!isCreate && (
              <Tooltip label="Keep the current password">
                <ActionIcon
                  variant="default"
                  size="lg"
                  aria-label="Keep current password"
                  onClick={() => form.setFieldValue('password', '')}
                  disabled={!password}
                >
                  <IconX size={18} />
                </ActionIcon>
              </Tooltip>
            )}
          </Group>
        </Group>
        <MultiSelect
          label="Roles"
          placeholder={form.values.roles.length ? undefined : 'No role'}
          data={roleOptions}
          searchable
          clearable
          nothingFoundMessage="No such role"
          comboboxProps={{ withinPortal: true }}
          disabled={roles.isPending}
          {...form.getInputProps('roles')}
        />
        <Group justify="flex-end" mt="sm">
          <Button variant="default" onClick={onDone}>
            Cancel
          </Button>
          <Button type="submit" loading={create.isPending || update.isPending || checking}>
            {isCreate ? 'Create' : 'Save'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
