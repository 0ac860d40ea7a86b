import { useEffect, useState } from 'react';
import {
  Badge,
  Box,
  Button,
  Center,
  Group,
  Loader,
  Paper,
  Radio,
  ScrollArea,
  Stack,
  Table,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import { IconEdit, IconTrash, IconUserPlus } from '@tabler/icons-react';
import { ADMIN_USERNAME, DEFAULT_TIMEZONE, MSG, type User } from '@stadiumcam/contract';
import { confirm, showErrorModal, showSuccessModal } from '../../ui/feedback.tsx';
import { useSession } from '../auth/session.hooks.ts';
import { eventDateTime } from '../events/event-time.ts';
import { UserModal, type UserModalState } from './user.modal.tsx';
import { useDeleteUser, useUsers } from './users.hooks.ts';

/**
 * The console's time format (issue 10 point 9): DD/MM/YYYY hh:mm:ss with am/pm and the zone's
 * label, in the venue's zone (a user belongs to no event).
 */
const formatDate = (iso: string | null) => (iso ? eventDateTime(iso, DEFAULT_TIMEZONE) : null);

/** Admin Users page (spec 3 §2.1): single-row selection, Edit, Delete, Create new user. */
export function UsersPage() {
  const users = useUsers();
  const remove = useDeleteUser();
  const { user: me } = useSession();
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [modal, setModal] = useState<UserModalState>(null);
  const selected = users.data?.find((u) => u._id === selectedId) ?? null;
  // The server refuses both; say why instead of offering a button that fails.
  const undeletable =
    selected?._id === me?._id
      ? MSG.users.cannotDeleteSelf
      : selected?.username === ADMIN_USERNAME
        ? MSG.users.cannotDeleteAdmin
        : null;

  useEffect(() => {
    if (users.isError) showErrorModal();
  }, [users.isError]);

  const handleDelete = async () => {
    if (!selected) return;
    const ok = await confirm({
      title: MSG.users.deleteUserTitle,
      text: MSG.users.deleteUserConfirm(selected.username),
      confirmLabel: MSG.common.deleteLabel,
      danger: true,
    });
    if (!ok) return;
    remove.mutate(selected._id, {
      onSuccess: () => {
        setSelectedId(null);
        showSuccessModal(MSG.users.userDeleted);
      },
      onError: () => showErrorModal(MSG.users.userDeleteFailed),
    });
  };

  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap">
        <Title order={2}>Users</Title>
        <Group gap="xs">
          <Button
            variant="default"
            leftSection={<IconEdit size={16} />}
            disabled={!selected}
            onClick={() => selected && setModal({ mode: 'update', user: selected })}
          >
            Edit
          </Button>
          <Tooltip label={undeletable} disabled={!selected || !undeletable}>
            {/* A disabled button gets no pointer events: the box carries the tooltip. */}
            <Box>
              <Button
                variant="default"
                color="red"
                leftSection={<IconTrash size={16} />}
                disabled={!selected || undeletable !== null}
                loading={remove.isPending}
                onClick={() => void handleDelete()}
              >
                Delete
              </Button>
            </Box>
          </Tooltip>
          <Button leftSection={<IconUserPlus size={16} />} onClick={() => setModal({ mode: 'create' })}>
            Create new user
          </Button>
        </Group>
      </Group>

      <Paper withBorder radius="sm">
        {users.isPending ? (
          <Center p="xl">
            <Loader />
          </Center>
        ) : users.isError ? (
          <Center p="xl">
            <Text c="red">{MSG.common.genericError}</Text>
          </Center>
        ) : users.data.length === 0 ? (
          <Center p="xl">
            <Text c="dimmed">{MSG.users.noUsers}</Text>
          </Center>
        ) : (
          <ScrollArea type="auto">
            <UsersTable users={users.data} selectedId={selectedId} onSelect={setSelectedId} />
          </ScrollArea>
        )}
      </Paper>

      <UserModal state={modal} onClose={() => setModal(null)} />
    </Stack>
  );
}

function UsersTable({
  users,
  selectedId,
  onSelect,
}: {
  users: User[];
  selectedId: string | null;
  onSelect: (id: string) => void;
}) {
  return (
    <Table striped highlightOnHover verticalSpacing={6} horizontalSpacing="md" miw={720} data-testid="users-table">
      <Table.Thead>
        <Table.Tr>
          <Table.Th w={40} />
          <Table.Th>User Name</Table.Th>
          <Table.Th w={200}>Created at</Table.Th>
          <Table.Th w={200}>Last login</Table.Th>
          <Table.Th>Roles</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {users.map((u) => {
          const checked = u._id === selectedId;
          return (
            <Table.Tr
              key={u._id}
              onClick={() => onSelect(u._id)}
              bg={checked ? 'var(--mantine-primary-color-light)' : undefined}
              style={{ cursor: 'pointer' }}
              aria-selected={checked}
            >
              <Table.Td>
                <Radio
                  size="xs"
                  name="selected-user"
                  checked={checked}
                  onChange={() => onSelect(u._id)}
                  aria-label={`Select ${u.username}`}
                />
              </Table.Td>
              <Table.Td>
                <Text size="sm" fw={500}>
                  {u.username}
                </Text>
                <Text size="xs" c="dimmed">
                  {u.email}
                </Text>
              </Table.Td>
              <Table.Td ff="monospace" fz="sm">
                {formatDate(u.createdAt)}
              </Table.Td>
              <Table.Td ff="monospace" fz="sm">
                {formatDate(u.lastLogin) ?? (
                  <Text span size="sm" c="dimmed">
                    Never
                  </Text>
                )}
              </Table.Td>
              <Table.Td>
                <Group gap={4}>
                  {u.roles.length ? (
                    u.roles.map((r) => (
                      <Badge key={r} variant="light" size="sm" tt="none">
                        {r}
                      </Badge>
                    ))
                  ) : (
                    <Text size="sm" c="dimmed">
                      No role
                    </Text>
                  )}
                </Group>
              </Table.Td>
            </Table.Tr>
          );
        })}
      </Table.Tbody>
    </Table>
  );
}
