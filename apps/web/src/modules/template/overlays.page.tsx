import { useEffect, useState } from 'react';
import {
  ActionIcon,
  Badge,
  Button,
  Checkbox,
  FileButton,
  Group,
  Image,
  Loader,
  Modal,
  MultiSelect,
  Paper,
  Stack,
  Switch,
  Text,
  Tooltip,
} from '@mantine/core';
import { DndContext, closestCenter, type DragEndEvent } from '@dnd-kit/core';
import { SortableContext, arrayMove, rectSortingStrategy, useSortable } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { IconDownload, IconGripVertical, IconMapPin, IconPlus, IconTrash } from '@tabler/icons-react';
import {
  MAX_OVERLAYS,
  MSG,
  buildPath,
  emptyOverlaySlots,
  overlayHeaderError,
  overlayLabel,
  overlayRoutes,
  partRoutes,
  type Overlay,
} from '@stadiumcam/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, api } from '../../ui/api.ts';
import { confirm, showErrorModal, showSuccessModal } from '../../ui/feedback.tsx';
import { EVENTS_KEY } from '../events/events.hooks.ts';
import { askSeatMap } from './seat-options.page.tsx';
import { useDragSensors } from './sortable.tsx';
import { TemplatePage } from './template-page.tsx';
import { useTemplatePart } from './template.hooks.ts';

/**
 * The overlay row's layout (spec 2 §9): up to 3 overlays sit at card width, above 3 the row
 * takes the full width, more than 5 wraps onto a second line.
 */
export const overlayLayout = (count: number) => (count > 5 ? 'wrap' : count > 3 ? 'full' : 'compact');

/** Spec 2 §5 in the console, on the file's bytes and its decoded pixels; the server checks again. */
async function checkFile(file: File): Promise<string | null> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  const headerError = overlayHeaderError(bytes);
  if (headerError) return MSG.templateParts[headerError];
  try {
    const bitmap = await createImageBitmap(file);
    const ok = bitmap.width === 2160 && bitmap.height === 2160;
    bitmap.close();
    return ok ? null : MSG.templateParts.overlaySize;
  } catch {
    return MSG.templateParts.overlayNotPng;
  }
}

async function upload(slugDate: string, file: File): Promise<Overlay> {
  const form = new FormData();
  form.append('image', file);
  const res = await fetch(buildPath(overlayRoutes.upload.path, { slugDate }), {
    method: 'POST',
    body: form,
    credentials: 'same-origin',
  });
  const body = (await res.json().catch(() => undefined)) as (Overlay & { error?: string }) | undefined;
  if (!res.ok) throw new ApiError(res.status, body);
  return body as Overlay;
}

/** 'Failed to update overlays' with the server's (or the console's own check's) text. */
const failed = (text: string) => showErrorModal(text, MSG.templateParts.overlaysUpdateFailed);

/**
 * Overlays (spec 2 Overlays, §4, §5, §9): upload, drag to reorder (the app's order), disable,
 * download, delete (kept marked deleted), and the seat sections each may be used in.
 */
export function OverlaysPage() {
  const part = useTemplatePart('overlays');
  return <OverlaysEditor key={part.key} part={part} />;
}

function OverlaysEditor({ part }: { part: ReturnType<typeof useTemplatePart<'overlays'>> }) {
  const [list, setList] = useState<Overlay[]>(() => part.value?.overlays ?? []);
  const [uploading, setUploading] = useState(false);
  const [picking, setPicking] = useState<string | null>(null);
  const sensors = useDragSensors();
  const qc = useQueryClient();
  // Its own save (not useSavePart): a refusal reads 'Failed to update overlays' + the server's text.
  const save = useMutation({
    mutationFn: (overlays: Overlay[]) => api(partRoutes.overlays, { body: { eventIds: part.eventIds, overlays } }),
    onSuccess: () => showSuccessModal(MSG.template.eventSuccessfullyUpdated),
    onError: (err) =>
      err instanceof ApiError && err.status === 404
        ? showErrorModal(MSG.events.eventDataOld)
        : failed(err instanceof ApiError && err.body?.error ? err.body.error : MSG.events.eventUpdateRetry),
    onSettled: () => qc.invalidateQueries({ queryKey: EVENTS_KEY }),
  });
  const shown = list.filter((o) => !o.deleted);
  const full = shown.length >= MAX_OVERLAYS;
  const slugDate = part.first?.slugDate;

  const patch = (key: string, change: Partial<Overlay>) =>
    setList((l) => l.map((o) => (o.storageKey === key ? { ...o, ...change } : o)));

  const handleFile = async (file: File | null) => {
    if (!file || !slugDate) return;
    if (full) return failed(MSG.templateParts.overlaysMax);
    setUploading(true);
    try {
      const problem = await checkFile(file);
      if (problem) return failed(problem);
      const entry = await upload(slugDate, file);
      setList((l) => [...l, entry]);
    } catch (err) {
      failed(err instanceof ApiError && err.body?.error ? err.body.error : MSG.common.genericError);
    } finally {
      setUploading(false);
    }
  };

  const handleDelete = async (key: string) => {
    if (await confirm({ title: 'Delete overlay', text: MSG.templateParts.deleteImageConfirm, danger: true }))
      patch(key, { deleted: true });
  };

  const handleDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    setList((l) => {
      const from = l.findIndex((o) => o.storageKey === active.id);
      const to = l.findIndex((o) => o.storageKey === over.id);
      return from < 0 || to < 0 ? l : arrayMove(l, from, to);
    });
  };

  const handleUpdate = () => save.mutate([...list.filter((o) => !o.deleted), ...list.filter((o) => o.deleted)]);

  const layout = overlayLayout(shown.length);
  const slots = emptyOverlaySlots(shown.length);
  const editing = list.find((o) => o.storageKey === picking);

  return (
    <TemplatePage
      title="Overlays"
      loading={part.loading}
      failed={part.event.isError}
      onUpdate={handleUpdate}
      saving={save.isPending}
      actions={
        <FileButton onChange={(f) => void handleFile(f)} accept="image/png" disabled={full || uploading}>
          {(props) => (
            <Button
              {...props}
              variant="default"
              leftSection={uploading ? <Loader size={14} /> : <IconPlus size={16} />}
              disabled={full || uploading}
              data-testid="overlay-add"
            >
              Add
            </Button>
          )}
        </FileButton>
      }
    >
      <Text size="sm" c="dimmed" mb="sm">
        PNG (8-bit), 2160×2160 px, 800 KB or less; at most {MAX_OVERLAYS}. Drag to set the order fans see.
      </Text>
      <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={handleDragEnd}>
        <SortableContext items={shown.map((o) => o.storageKey)} strategy={rectSortingStrategy}>
          <div
            data-testid="overlay-list"
            data-layout={layout}
            style={{
              display: 'grid',
              gap: 12,
              gridTemplateColumns:
                layout === 'compact'
                  ? 'repeat(3, 220px)'
                  : layout === 'full'
                    ? `repeat(${shown.length + slots}, minmax(0, 1fr))`
                    : 'repeat(4, minmax(0, 1fr))',
            }}
          >
            {shown.map((o, i) => (
              <OverlayCard
                key={o.storageKey}
                overlay={o}
                index={i}
                onToggle={(on) => patch(o.storageKey, { disabled: !on })}
                onSections={() => setPicking(o.storageKey)}
                onDelete={() => void handleDelete(o.storageKey)}
              />
            ))}
            {Array.from({ length: slots }, (_, i) => (
              <FileButton
                key={`slot-${i}`}
                onChange={(f) => void handleFile(f)}
                accept="image/png"
                disabled={full || uploading}
              >
                {(props) => (
                  <Paper
                    {...props}
                    component="button"
                    withBorder
                    radius="md"
                    data-testid="overlay-slot"
                    disabled={full || uploading}
                    style={{ aspectRatio: '1', borderStyle: 'dashed', cursor: 'pointer', background: 'none' }}
                  >
                    <Stack align="center" gap={4}>
                      {uploading ? <Loader size="sm" /> : <IconPlus />}
                      <Text size="sm">Add overlay</Text>
                    </Stack>
                  </Paper>
                )}
              </FileButton>
            ))}
          </div>
        </SortableContext>
      </DndContext>
      {editing && (
        <SectionsModal
          initial={editing.sections}
          onClose={() => setPicking(null)}
          onSave={(sections) => {
            patch(editing.storageKey, { sections });
            setPicking(null);
          }}
        />
      )}
    </TemplatePage>
  );
}

function OverlayCard({
  overlay,
  index,
  onToggle,
  onSections,
  onDelete,
}: {
  overlay: Overlay;
  index: number;
  onToggle: (on: boolean) => void;
  onSections: () => void;
  onDelete: () => void;
}) {
  const { attributes, listeners, setNodeRef, transform, transition } = useSortable({ id: overlay.storageKey });
  const label = overlayLabel(overlay.storageKey);
  const all = overlay.sections.includes('*');
  return (
    <Paper
      ref={setNodeRef}
      withBorder
      radius="md"
      p="xs"
      data-testid="overlay-card"
      data-key={overlay.storageKey}
      style={{ transform: CSS.Transform.toString(transform), transition, minWidth: 0 }}
    >
      <Stack gap={6}>
        <Group justify="space-between" wrap="nowrap" gap={4}>
          <ActionIcon variant="subtle" color="gray" aria-label={`Drag overlay ${label}`} {...attributes} {...listeners}>
            <IconGripVertical size={16} />
          </ActionIcon>
          <Badge variant="light">{index + 1}</Badge>
          <Text size="xs" ff="monospace" truncate>
            {label}
          </Text>
        </Group>
        <Image
          src={overlay.urlFullSize}
          alt={label}
          radius="sm"
          style={{ aspectRatio: '1', background: 'repeating-conic-gradient(#ddd 0 25%, #fff 0 50%) 0 0 / 16px 16px' }}
          opacity={overlay.disabled ? 0.4 : 1}
        />
        <Switch
          size="xs"
          label={overlay.disabled ? 'Disabled' : 'Enabled'}
          checked={!overlay.disabled}
          onChange={(e) => onToggle(e.currentTarget.checked)}
          aria-label={`Enable overlay ${label}`}
        />
        <Text size="xs" c="dimmed" truncate data-testid="overlay-sections">
          {all ? 'All sections' : `Sections: ${overlay.sections.join(', ')}`}
        </Text>
        <Group gap={4} justify="flex-end">
          <Tooltip label="Sections">
            <ActionIcon variant="light" onClick={onSections} aria-label={`Sections of ${label}`}>
              <IconMapPin size={16} />
            </ActionIcon>
          </Tooltip>
          <Tooltip label="Download">
            <ActionIcon
              component="a"
              variant="light"
              href={overlay.urlFullSize}
              download={`${label}`}
              aria-label={`Download ${label}`}
            >
              <IconDownload size={16} />
            </ActionIcon>
          </Tooltip>
          <Tooltip label="Delete">
            <ActionIcon variant="light" color="red" onClick={onDelete} aria-label={`Delete ${label}`}>
              <IconTrash size={16} />
            </ActionIcon>
          </Tooltip>
        </Group>
      </Stack>
    </Paper>
  );
}

/** Spec 2 §5: Save needs at least one section; choosing every section stores '*'. */
function SectionsModal({
  initial,
  onClose,
  onSave,
}: {
  initial: string[];
  onClose: () => void;
  onSave: (sections: string[]) => void;
}) {
  const [options, setOptions] = useState<string[] | null>(null);
  const [all, setAll] = useState(initial.includes('*'));
  const [chosen, setChosen] = useState<string[]>(initial.filter((s) => s !== '*'));
  useEffect(() => {
    void askSeatMap('getSections', { type: 'section' }).then((a) => setOptions(a?.sections ?? []));
  }, []);
  const everything = all || (!!options?.length && options.every((s) => chosen.includes(s)));
  const none = !all && chosen.length === 0;
  return (
    <Modal opened onClose={onClose} title="Sections" centered>
      <Stack gap="sm" data-testid="overlay-sections-modal">
        <Checkbox label="All sections" checked={all} onChange={(e) => setAll(e.currentTarget.checked)} />
        <MultiSelect
          label="Seat sections"
          placeholder={options === null ? 'Loading sections…' : 'Choose sections'}
          data={options ?? []}
          value={chosen}
          onChange={setChosen}
          disabled={all}
          searchable
          clearable
        />
        {none && (
          <Text c="red" size="sm">
            {MSG.templateParts.overlaySectionsRequired}
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button disabled={none} onClick={() => onSave(everything ? ['*'] : chosen)}>
            Save
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
