import { useEffect, useMemo, useState } from 'react';
import {
  Alert,
  Badge,
  Button,
  Center,
  Flex,
  Group,
  Loader,
  NavLink,
  Paper,
  ScrollArea,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconDeviceFloppy, IconLock, IconPlus, IconTrash } from '@tabler/icons-react';
import {
  ALL_PERMISSIONS,
  MSG,
  P,
  isPermission,
  togglePermission,
  type Permission,
  type Role,
} from '@stadiumcam/contract';
import { useUnsavedChangesPrompt } from '../../ui/unsaved-changes.ts';
import { ApiError, errorText } from '../../ui/api.ts';
import { confirm, showErrorModal, showSuccessModal } from '../../ui/feedback.tsx';
import { useCan } from '../auth/session.hooks.ts';
import { AddRoleModal } from './add-role.modal.tsx';
import { PermissionTree } from './permission-tree.tsx';
import { useDeleteRole, useRoles, useSaveRole } from './roles.hooks.ts';

/** An edit not yet saved; `isNew` = added here and not yet on the server. */
type Draft = { permissions: Permission[]; isNew: boolean };

type EditorRole = { name: string; permissions: Permission[]; readonly: boolean; saved: boolean; isNew: boolean };

const known = (list: readonly string[]) => list.filter(isPermission);

/** Role Editor (spec 3 §2.2): roles, the permission tree, Delete role / Add new role / Save. */
export function RolesPage() {
  const roles = useRoles();
  const save = useSaveRole();
  const remove = useDeleteRole();
  const canWrite = useCan(P.ROLES_WRITE);
  const [drafts, setDrafts] = useState<Record<string, Draft>>({});
  useUnsavedChangesPrompt(Object.keys(drafts).length > 0);
  const [selectedName, setSelectedName] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);

  useEffect(() => {
    if (roles.isError) showErrorModal();
  }, [roles.isError]);

  const list = useMemo<EditorRole[]>(() => {
    const fromServer = (roles.data ?? []).map((r: Role) => {
      const draft = drafts[r.name];
      // The built-in admin holds everything, whatever is stored.
      const permissions = r.readonly ? ALL_PERMISSIONS : (draft?.permissions ?? known(r.permissions));
      return { name: r.name, permissions, readonly: r.readonly, saved: !draft, isNew: false };
    });
    const added = Object.entries(drafts)
      .filter(([name, d]) => d.isNew && !fromServer.some((r) => r.name === name))
      .map(([name, d]) => ({ name, permissions: d.permissions, readonly: false, saved: false, isNew: true }));
    return [...fromServer, ...added];
  }, [roles.data, drafts]);

  const selected = list.find((r) => r.name === selectedName) ?? list[0] ?? null;
  const locked = !canWrite || !selected || selected.readonly;

  const dropDraft = (name: string) =>
    setDrafts((d) => {
      const next = { ...d };
      delete next[name];
      return next;
    });

  const handleToggle = (name: Permission, checked: boolean) => {
    if (!selected || locked) return;
    setDrafts((d) => ({
      ...d,
      [selected.name]: { permissions: togglePermission(selected.permissions, name, checked), isNew: selected.isNew },
    }));
  };

  const handleAdd = (name: string) => {
    setDrafts((d) => ({ ...d, [name]: { permissions: [], isNew: true } }));
    setSelectedName(name);
    setAdding(false);
  };

  const handleSave = () => {
    if (!selected) return;
    const { name, permissions, isNew } = selected;
    save.mutate(
      { name, permissions, isNew },
      {
        onSuccess: () => {
          dropDraft(name);
          showSuccessModal(MSG.roles.roleSaved(name));
        },
        onError: (err) =>
          err instanceof ApiError && err.status === 409
            ? showErrorModal(MSG.roles.roleExistsText, MSG.roles.roleExistsTitle)
            : showErrorModal(errorText(err, MSG.common.genericError)),
      },
    );
  };

  const handleDelete = async () => {
    if (!selected) return;
    const ok = await confirm({
      title: MSG.roles.deleteRoleTitle,
      text: MSG.roles.deleteRoleConfirm(selected.name),
      confirmLabel: MSG.common.deleteLabel,
      danger: true,
    });
    if (!ok) return;
    const backToFirst = () => {
      dropDraft(selected.name);
      setSelectedName(null);
    };
    if (selected.isNew) return backToFirst();
    remove.mutate(selected.name, {
      onSuccess: backToFirst,
      onError: (err) => showErrorModal(errorText(err, MSG.common.genericError)),
    });
  };

  const checked = useMemo(() => new Set(selected?.permissions ?? []), [selected]);

  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap">
        <Title order={2}>Role Editor</Title>
        {canWrite && (
          <Group gap="xs">
            <Button
              variant="default"
              leftSection={<IconTrash size={16} />}
              disabled={!selected || selected.readonly}
              loading={remove.isPending}
              onClick={() => void handleDelete()}
            >
              Delete role
            </Button>
            <Button variant="default" leftSection={<IconPlus size={16} />} onClick={() => setAdding(true)}>
              Add new role
            </Button>
            <Button
              leftSection={<IconDeviceFloppy size={16} />}
              disabled={!selected || selected.saved || selected.readonly}
              loading={save.isPending}
              onClick={handleSave}
            >
              Save
            </Button>
          </Group>
        )}
      </Group>

      {!canWrite && (
        <Alert variant="light" color="gray" icon={<IconLock size={18} />} py="xs">
          Read only: editing roles needs the {P.ROLES_WRITE} permission.
        </Alert>
      )}

      {roles.isPending ? (
        <Center p="xl">
          <Loader />
        </Center>
      ) : roles.isError ? (
        <Center p="xl">
          <Text c="red">{MSG.common.genericError}</Text>
        </Center>
      ) : (
        <Flex gap="md" align="flex-start" direction={{ base: 'column', sm: 'row' }}>
          <Paper withBorder radius="sm" p={4} w={{ base: '100%', sm: 240 }} style={{ flexShrink: 0 }}>
            <Text size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" py={6}>
              Roles
            </Text>
            <ScrollArea.Autosize mah="calc(100vh - 220px)" type="auto">
              <nav aria-label="Roles">
                {list.map((r) => (
                  <NavLink
                    key={r.name}
                    component="button"
                    label={r.name}
                    active={r.name === selected?.name}
                    onClick={() => setSelectedName(r.name)}
                    rightSection={
                      r.readonly ? (
                        <IconLock size={14} aria-label="locked" />
                      ) : !r.saved ? (
                        <Badge size="xs" color="yellow" variant="light">
                          unsaved
                        </Badge>
                      ) : null
                    }
                  />
                ))}
              </nav>
            </ScrollArea.Autosize>
          </Paper>

          <Paper withBorder radius="sm" p="md" flex={1} w="100%" miw={0}>
            {selected ? (
              <Stack gap="sm">
                <Group justify="space-between">
                  <Group gap="xs">
                    <Title order={4}>{selected.name}</Title>
                    {selected.readonly && (
                      <Badge variant="light" color="gray" leftSection={<IconLock size={12} />}>
                        built-in, cannot be changed
                      </Badge>
                    )}
                  </Group>
                  <Text size="sm" c="dimmed">
                    {selected.permissions.length} of {ALL_PERMISSIONS.length} permissions
                  </Text>
                </Group>
                <PermissionTree checked={checked} disabled={locked} onToggle={handleToggle} />
              </Stack>
            ) : (
              <Text c="dimmed">There are no roles.</Text>
            )}
          </Paper>
        </Flex>
      )}

      <AddRoleModal
        opened={adding}
        existing={list.map((r) => r.name)}
        onClose={() => setAdding(false)}
        onAdd={handleAdd}
      />
    </Stack>
  );
}
