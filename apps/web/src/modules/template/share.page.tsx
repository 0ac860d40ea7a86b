import { useState, type ReactNode } from 'react';
import {
  ActionIcon,
  Badge,
  Button,
  Checkbox,
  Group,
  Modal,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { DndContext, closestCenter, useDroppable, type DragEndEvent, type DragOverEvent } from '@dnd-kit/core';
import { SortableContext, arrayMove, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { IconArrowLeft, IconArrowRight } from '@tabler/icons-react';
import { SortableRow, useDragSensors } from './sortable.tsx';
import {
  MAX_ACTIVE_SHARE,
  MIN_ACTIVE_SHARE,
  MSG,
  SHARE_PLATFORMS,
  type ShareOption,
  type SharePlatform,
} from '@stadiumcam/contract';
import { showErrorModal } from '../../ui/feedback.tsx';
import { useEvent } from '../events/events.hooks.ts';
import { TemplatePage } from './template-page.tsx';
import { useSavePart, useTemplatePart } from './template.hooks.ts';

/* ---------- Share settings (spec 2 Share, §4, §5, §9) ---------- */

const LABELS: Record<SharePlatform, string> = {
  print: 'Print',
  share: 'Share',
  'share level 2': 'Share level 2',
  download: 'Download',
  email: 'E-mail',
};
const HELP: Record<SharePlatform, string> = {
  print: 'Prints the photo from the phone',
  share: "The phone's share sheet (Web Share)",
  'share level 2': 'A second share button with the photo and the event link',
  download: 'Saves the photo on the phone',
  email: 'Sends the photo by e-mail through the server',
};

type Lists = { active: SharePlatform[]; inactive: SharePlatform[] };
const listsOf = (share: ShareOption[] | undefined): Lists => {
  const active = (share ?? []).filter((o) => o.enabled).map((o) => o.platform);
  return { active, inactive: SHARE_PLATFORMS.filter((p) => !active.includes(p)) };
};

/** The spec's texts for a ranked list outside 1..4, or null. */
export const shareProblem = (active: number) =>
  active > MAX_ACTIVE_SHARE
    ? MSG.templateParts.shareMax
    : active < MIN_ACTIVE_SHARE
      ? MSG.templateParts.shareMin
      : null;

export function SharePage() {
  const part = useTemplatePart('share');
  return <ShareEditor key={part.key} part={part} />;
}

function ShareEditor({ part }: { part: ReturnType<typeof useTemplatePart<'share'>> }) {
  const [lists, setLists] = useState<Lists>(() => listsOf(part.value?.share));
  const [asking, setAsking] = useState(false);
  const sensors = useDragSensors();
  const save = useSavePart('share');
  const where = (id: SharePlatform): keyof Lists => (lists.active.includes(id) ? 'active' : 'inactive');

  const move = (id: SharePlatform, to: keyof Lists, index?: number) =>
    setLists((l) => {
      const from: keyof Lists = l.active.includes(id) ? 'active' : 'inactive';
      const next = { active: l.active.filter((p) => p !== id), inactive: l.inactive.filter((p) => p !== id) };
      const at = index ?? next[to].length;
      next[to].splice(at, 0, id);
      return from === to && index === undefined ? l : next;
    });

  const handleDragOver = ({ active, over }: DragOverEvent) => {
    if (!over) return;
    const id = active.id as SharePlatform;
    const to = over.id === 'active' || over.id === 'inactive' ? over.id : where(over.id as SharePlatform);
    if (where(id) === to) return;
    const index = over.id === to ? undefined : lists[to].indexOf(over.id as SharePlatform);
    move(id, to, index);
  };
  const handleDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    const list = where(active.id as SharePlatform);
    const from = lists[list].indexOf(active.id as SharePlatform);
    const to = lists[list].indexOf(over.id as SharePlatform);
    if (from < 0 || to < 0) return;
    setLists((l) => ({ ...l, [list]: arrayMove(l[list], from, to) }));
  };

  const problem = shareProblem(lists.active.length);
  const handleUpdate = () => (problem ? showErrorModal(problem) : setAsking(true));
  const handleSave = (eventIds: string[]) => {
    const share: ShareOption[] = [
      ...lists.active.map((platform) => ({ platform, enabled: true })),
      ...lists.inactive.map((platform) => ({ platform, enabled: false })),
    ];
    save.mutate({ share, eventIds } as never, { onSuccess: () => setAsking(false) });
  };

  const column = (name: keyof Lists, title: string, hint: string) => (
    <Paper withBorder p="md" radius="md">
      <Title order={5}>{title}</Title>
      <Text size="xs" c="dimmed" mb="sm">
        {hint}
      </Text>
      <SortableContext items={lists[name]} strategy={verticalListSortingStrategy}>
        <DropArea id={name}>
          {lists[name].map((p, i) => (
            <SortableRow key={p} id={p} testId={`share-${name}-item`}>
              {name === 'active' && (
                <Badge variant="light" circle>
                  {i + 1}
                </Badge>
              )}
              <Stack gap={0} style={{ flex: 1 }}>
                <Text fw={500}>{LABELS[p]}</Text>
                <Text size="xs" c="dimmed">
                  {HELP[p]}
                </Text>
              </Stack>
              <ActionIcon
                variant="light"
                aria-label={name === 'active' ? `Deactivate ${LABELS[p]}` : `Activate ${LABELS[p]}`}
                onClick={() => move(p, name === 'active' ? 'inactive' : 'active')}
              >
                {name === 'active' ? <IconArrowLeft size={16} /> : <IconArrowRight size={16} />}
              </ActionIcon>
            </SortableRow>
          ))}
        </DropArea>
      </SortableContext>
    </Paper>
  );

  return (
    <TemplatePage
      title="Share"
      loading={part.loading}
      failed={part.event.isError}
      onUpdate={handleUpdate}
      saving={save.isPending}
    >
      <Stack maw={900} gap="sm">
        <DndContext
          sensors={sensors}
          collisionDetection={closestCenter}
          onDragOver={handleDragOver}
          onDragEnd={handleDragEnd}
        >
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {column('inactive', 'Inactive', 'Drag an option to the right to offer it')}
            {column('active', 'Available to users', 'In the order the app shows them (1 to 4)')}
          </SimpleGrid>
        </DndContext>
        {problem && (
          <Text c="red" size="sm" data-testid="share-problem">
            {problem}
          </Text>
        )}
      </Stack>
      <SaveTargetsModal
        opened={asking}
        onClose={() => setAsking(false)}
        onSave={handleSave}
        saving={save.isPending}
        part={part}
      />
    </TemplatePage>
  );
}

function DropArea({ id, children }: { id: string; children: ReactNode }) {
  const { setNodeRef, isOver } = useDroppable({ id });
  return (
    <Stack
      ref={setNodeRef}
      gap={6}
      mih={120}
      p={4}
      data-testid={`share-${id}`}
      style={{ borderRadius: 6, outline: isOver ? '2px dashed var(--mantine-primary-color-filled)' : undefined }}
    >
      {children}
    </Stack>
  );
}

/**
 * 'Save your changes?' (spec 2 §4): where the share list goes: the selected events and/or the
 * master template; at least one. With the template selected the first option is the template
 * itself, so it is locked on.
 */
function SaveTargetsModal({
  opened,
  onClose,
  onSave,
  saving,
  part,
}: {
  opened: boolean;
  onClose: () => void;
  onSave: (eventIds: string[]) => void;
  saving: boolean;
  part: ReturnType<typeof useTemplatePart<'share'>>;
}) {
  const template = useEvent('stadiumcam');
  const templateSelected = part.events.some((e) => e.template);
  const [current, setCurrent] = useState(true);
  const [master, setMaster] = useState(false);
  const ids = new Set<string>();
  if (current || templateSelected) part.eventIds.forEach((id) => ids.add(id));
  if (master && template.data) ids.add(template.data._id);
  const names = part.events.map((e) => (e.template ? 'Master Template' : e.title || e.slugDate)).join(', ');
  return (
    <Modal opened={opened} onClose={onClose} title={MSG.templateParts.saveChangesTitle} centered>
      <Stack gap="sm" data-testid="save-targets">
        <Checkbox
          label={templateSelected ? 'Master Template' : `Current event${part.events.length > 1 ? 's' : ''}: ${names}`}
          checked={current || templateSelected}
          disabled={templateSelected}
          onChange={(e) => setCurrent(e.currentTarget.checked)}
        />
        {!templateSelected && (
          <Checkbox label="Master Template" checked={master} onChange={(e) => setMaster(e.currentTarget.checked)} />
        )}
        {ids.size === 0 && (
          <Text c="red" size="sm">
            {MSG.templateParts.chooseTarget}
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={() => onSave([...ids])} disabled={ids.size === 0} loading={saving}>
            Save
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
