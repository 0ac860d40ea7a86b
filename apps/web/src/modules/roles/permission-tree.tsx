import { ActionIcon, Box, Checkbox, Group, Popover, Stack, Text } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { PERMISSION_TREE, type Permission, type PermissionNode } from '@stadiumcam/contract';

type Props = {
  checked: ReadonlySet<Permission>;
  disabled: boolean;
  onToggle: (name: Permission, checked: boolean) => void;
};

/** The permission tree as checkboxes; each top-level branch stays together in a column. */
export function PermissionTree({ checked, disabled, onToggle }: Props) {
  return (
    <Box style={{ columns: '300px 3', columnGap: 'var(--mantine-spacing-xl)' }} data-testid="permission-tree">
      {PERMISSION_TREE.map((node) => (
        <Box key={node.name} style={{ breakInside: 'avoid' }} pb={6}>
          <NodeRow node={node} depth={0} checked={checked} disabled={disabled} onToggle={onToggle} />
        </Box>
      ))}
    </Box>
  );
}

function NodeRow({ node, depth, ...rest }: Props & { node: PermissionNode; depth: number }) {
  const { checked, disabled, onToggle } = rest;
  return (
    <Stack gap={0}>
      <Group gap={4} wrap="nowrap" pl={depth * 24} py={3}>
        <Checkbox
          size="xs"
          label={node.name}
          checked={checked.has(node.name)}
          disabled={disabled}
          onChange={(e) => onToggle(node.name, e.currentTarget.checked)}
          styles={{ label: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 13 } }}
        />
        <Popover width={280} position="right" withArrow shadow="md">
          <Popover.Target>
            <ActionIcon variant="subtle" color="gray" size="xs" aria-label={`About ${node.name}`}>
              <IconInfoCircle size={14} />
            </ActionIcon>
          </Popover.Target>
          <Popover.Dropdown>
            <Text size="xs" fw={600} ff="monospace">
              {node.name}
            </Text>
            <Text size="sm">{node.description}</Text>
          </Popover.Dropdown>
        </Popover>
      </Group>
      {node.children.map((c) => (
        <NodeRow key={c.name} node={c} depth={depth + 1} {...rest} />
      ))}
    </Stack>
  );
}
