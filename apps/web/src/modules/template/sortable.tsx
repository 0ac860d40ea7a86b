import type { ReactNode } from 'react';
import { ActionIcon, Group, Paper } from '@mantine/core';
import { KeyboardSensor, PointerSensor, useSensor, useSensors } from '@dnd-kit/core';
import { sortableKeyboardCoordinates, useSortable } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { IconGripVertical } from '@tabler/icons-react';

/* Drag helpers of the overlays, share and seat-options screens (a page module may only export its page). */

/** Mouse/touch drag, and the keyboard (Space, arrows, Space) for operators without a mouse. */
export function useDragSensors() {
  return useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
}

/** One draggable row: the grip carries the drag so the row's own buttons stay clickable. */
export function SortableRow({ id, children, testId }: { id: string; children: ReactNode; testId?: string }) {
  const { attributes, listeners, setNodeRef, transform, transition, isDragging } = useSortable({ id });
  return (
    <Paper
      ref={setNodeRef}
      withBorder
      p="xs"
      radius="sm"
      data-testid={testId}
      style={{ transform: CSS.Transform.toString(transform), transition, opacity: isDragging ? 0.6 : 1 }}
    >
      <Group gap="xs" wrap="nowrap">
        <ActionIcon variant="subtle" color="gray" aria-label={`Drag ${id}`} {...attributes} {...listeners}>
          <IconGripVertical size={16} />
        </ActionIcon>
        {children}
      </Group>
    </Paper>
  );
}
