import { useEffect, useState } from 'react';
import {
  ActionIcon,
  Button,
  Group,
  Modal,
  Paper,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { DndContext, closestCenter, type DragEndEvent } from '@dnd-kit/core';
import { SortableContext, arrayMove, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import {
  MSG,
  SEAT_OPTION_TYPES,
  blockedSeatKey,
  type BlockedSeat,
  type ConsoleClientEvents,
  type SeatOption,
  type SeatOptionType,
} from '@stadiumcam/contract';
import { getConsoleSocket } from '../../ui/socket.ts';
import { SortableRow, useDragSensors } from './sortable.tsx';
import { TemplatePage } from './template-page.tsx';
import { useSavePart, useTemplatePart } from './template.hooks.ts';

type SeatMapCall = 'getSections' | 'getRows' | 'getSeats';
type Answer<E extends SeatMapCall> = Extract<Parameters<Parameters<ConsoleClientEvents[E]>[1]>[0], { ok: true }>;

/** The seat map's cascading calls (DESIGN §11) on the console socket; null when it does not answer. */
export async function askSeatMap<E extends SeatMapCall>(
  event: E,
  payload: Parameters<ConsoleClientEvents[E]>[0],
): Promise<Answer<E> | null> {
  try {
    const socket = getConsoleSocket().timeout(10_000) as unknown as {
      emitWithAck: (e: E, p: typeof payload) => Promise<Answer<E> | { ok: false; error: string }>;
    };
    const answer = await socket.emitWithAck(event, payload);
    return answer.ok ? answer : null;
  } catch {
    return null;
  }
}

const TYPE_LABELS: Record<SeatOptionType, string> = {
  stand: 'Stand',
  section: 'Section',
  custom_type_1: 'Custom type 1',
  custom_type_2: 'Custom type 2',
  custom_type_3: 'Custom type 3',
  box: 'Box',
  suite: 'Suite',
};

/**
 * Every card, stored ones first in their order. A type the event never stored starts on when
 * the venue's seat map has sections of it, else off by the venue (not forced): such a card
 * cannot be toggled (spec 2 §4).
 */
function cardsOf(stored: SeatOption[], venueTypes: Set<string> | null): SeatOption[] {
  const missing = SEAT_OPTION_TYPES.filter((t) => !stored.some((o) => o.type === t)).map((type): SeatOption => ({
    type,
    enabled: !!venueTypes?.has(type),
    forcedDisable: false,
    mode: 'grid',
  }));
  return [...stored, ...missing];
}

/** Spec 2 §4: disabling sets forcedDisable; enabling clears it. */
const toggleSeatType = (o: SeatOption, on: boolean): SeatOption =>
  on ? { ...o, enabled: true, forcedDisable: false } : { ...o, enabled: false, forcedDisable: true };

/** Spec 2 §4: a type off by the venue (disabled, not forced) is locked. */
const seatTypeLocked = (o: SeatOption) => !o.enabled && !o.forcedDisable;

export function SeatOptionsPage() {
  const part = useTemplatePart('seatOptions');
  const [venueTypes, setVenueTypes] = useState<Set<string> | null>(null);
  useEffect(() => {
    let stop = false;
    void Promise.all(
      SEAT_OPTION_TYPES.map(async (type) => {
        const a = await askSeatMap('getSections', { type });
        return a && a.sections.length ? type : null;
      }),
    ).then((types) => !stop && setVenueTypes(new Set(types.filter((t): t is SeatOptionType => !!t))));
    return () => {
      stop = true;
    };
  }, []);
  return (
    <SeatOptionsEditor
      key={`${part.key}|${venueTypes ? 'venue' : ''}`}
      part={part}
      venueTypes={venueTypes}
      loading={venueTypes === null}
    />
  );
}

function SeatOptionsEditor({
  part,
  venueTypes,
  loading,
}: {
  part: ReturnType<typeof useTemplatePart<'seatOptions'>>;
  venueTypes: Set<string> | null;
  loading: boolean;
}) {
  const [cards, setCards] = useState<SeatOption[]>(() => cardsOf(part.value?.seatType ?? [], venueTypes));
  const [blocked, setBlocked] = useState<BlockedSeat[]>(() => part.value?.blockedSeats ?? []);
  const [adding, setAdding] = useState(false);
  const sensors = useDragSensors();
  const save = useSavePart('seatOptions');

  const handleDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    setCards((l) =>
      arrayMove(
        l,
        l.findIndex((o) => o.type === active.id),
        l.findIndex((o) => o.type === over.id),
      ),
    );
  };
  const patch = (type: string, change: (o: SeatOption) => SeatOption) =>
    setCards((l) => l.map((o) => (o.type === type ? change(o) : o)));

  return (
    <TemplatePage
      title="Seat Options"
      loading={part.loading || loading}
      failed={part.event.isError}
      onUpdate={() => save.mutate({ seatType: cards, blockedSeats: blocked })}
      saving={save.isPending}
    >
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <Stack gap="xs">
          <Title order={5}>Seat types</Title>
          <Text size="xs" c="dimmed">
            The app&apos;s seat form offers the enabled types in this order. Drag to reorder.
          </Text>
          <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={handleDragEnd}>
            <SortableContext items={cards.map((o) => o.type)} strategy={verticalListSortingStrategy}>
              <Stack gap={6} data-testid="seat-types">
                {cards.map((o) => (
                  <SortableRow key={o.type} id={o.type} testId="seat-type-card">
                    <Text fw={500} style={{ flex: 1 }} data-type={o.type}>
                      {TYPE_LABELS[o.type]}
                    </Text>
                    <SegmentedControl
                      size="xs"
                      data={[
                        { value: 'grid', label: 'Grid' },
                        { value: 'list', label: 'List' },
                      ]}
                      value={o.mode}
                      onChange={(mode) => patch(o.type, (x) => ({ ...x, mode: mode }))}
                      aria-label={`Mode of ${TYPE_LABELS[o.type]}`}
                    />
                    <Switch
                      checked={o.enabled}
                      disabled={seatTypeLocked(o)}
                      onChange={(e) => patch(o.type, (x) => toggleSeatType(x, e.currentTarget.checked))}
                      aria-label={`Enable ${TYPE_LABELS[o.type]}`}
                      title={seatTypeLocked(o) ? 'This venue has no seats of this type' : undefined}
                    />
                  </SortableRow>
                ))}
              </Stack>
            </SortableContext>
          </DndContext>
        </Stack>
        <Stack gap="xs">
          <Group justify="space-between">
            <Title order={5}>Blocked seats</Title>
            <Button size="xs" leftSection={<IconPlus size={14} />} onClick={() => setAdding(true)}>
              Add blocked seats
            </Button>
          </Group>
          <Paper withBorder radius="md">
            <Table striped data-testid="blocked-seats">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Seat type</Table.Th>
                  <Table.Th>Section</Table.Th>
                  <Table.Th>Row</Table.Th>
                  <Table.Th>Seat</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {blocked.length === 0 && (
                  <Table.Tr>
                    <Table.Td colSpan={5}>
                      <Text size="sm" c="dimmed" ta="center">
                        {MSG.templateParts.noBlockedSeats}
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                )}
                {blocked.map((b) => (
                  <Table.Tr key={blockedSeatKey(b)}>
                    <Table.Td>{TYPE_LABELS[b.seatType]}</Table.Td>
                    <Table.Td>{b.section}</Table.Td>
                    <Table.Td>{b.row}</Table.Td>
                    <Table.Td>{b.seat}</Table.Td>
                    <Table.Td>
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={`Unblock ${b.section} ${b.row} ${b.seat}`}
                        onClick={() => setBlocked((l) => l.filter((x) => blockedSeatKey(x) !== blockedSeatKey(b)))}
                      >
                        <IconTrash size={16} />
                      </ActionIcon>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Paper>
        </Stack>
      </SimpleGrid>
      {adding && (
        <BlockSeatModal
          types={cards.filter((o) => o.enabled || o.forcedDisable).map((o) => o.type)}
          blocked={blocked}
          onClose={() => setAdding(false)}
          onAdd={(b) => {
            setBlocked((l) => [...l, b]);
            setAdding(false);
          }}
        />
      )}
    </TemplatePage>
  );
}

type Draft = { seatType: string | null; section: string | null; row: string | null; seat: string | null };

/** 'Add blocked seats': type → section → row → seat, each list from the seat map (spec 2 §4). */
function BlockSeatModal({
  types,
  blocked,
  onClose,
  onAdd,
}: {
  types: SeatOptionType[];
  blocked: BlockedSeat[];
  onClose: () => void;
  onAdd: (b: BlockedSeat) => void;
}) {
  const [d, setD] = useState<Draft>({ seatType: null, section: null, row: null, seat: null });
  const [lists, setLists] = useState<{ sections: string[]; rows: string[]; seats: string[] }>({
    sections: [],
    rows: [],
    seats: [],
  });
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!d.seatType) return;
    void askSeatMap('getSections', { type: d.seatType }).then((a) =>
      setLists((l) => ({ ...l, sections: a?.sections ?? [] })),
    );
  }, [d.seatType]);
  useEffect(() => {
    if (!d.seatType || !d.section) return;
    void askSeatMap('getRows', { type: d.seatType, section: d.section }).then((a) =>
      setLists((l) => ({ ...l, rows: a?.rows ?? [] })),
    );
  }, [d.seatType, d.section]);
  useEffect(() => {
    if (!d.seatType || !d.section || !d.row) return;
    void askSeatMap('getSeats', { type: d.seatType, section: d.section, row: d.row }).then((a) =>
      setLists((l) => ({ ...l, seats: a?.seats ?? [] })),
    );
  }, [d.seatType, d.section, d.row]);

  const handleAdd = () => {
    const missing = !d.seatType
      ? MSG.templateParts.selectSeatType
      : !d.section
        ? MSG.templateParts.selectSection
        : !d.row
          ? MSG.templateParts.selectRow
          : !d.seat
            ? MSG.templateParts.selectSeat
            : null;
    if (missing) return setError(missing);
    const b = { seatType: d.seatType, section: d.section, row: d.row, seat: d.seat } as BlockedSeat;
    if (blocked.some((x) => blockedSeatKey(x) === blockedSeatKey(b)))
      return setError(MSG.templateParts.seatAlreadyBlocked);
    onAdd(b);
  };

  return (
    <Modal opened onClose={onClose} title="Add blocked seats" centered>
      <Stack gap="sm" data-testid="block-seat-modal">
        <Select
          label="Seat type"
          data={types.map((t) => ({ value: t, label: TYPE_LABELS[t] }))}
          value={d.seatType}
          onChange={(seatType) => {
            setError(null);
            setLists({ sections: [], rows: [], seats: [] });
            setD({ seatType, section: null, row: null, seat: null });
          }}
        />
        <Select
          label="Section"
          data={lists.sections}
          value={d.section}
          disabled={!d.seatType}
          searchable
          onChange={(section) => {
            setError(null);
            setLists((l) => ({ ...l, rows: [], seats: [] }));
            setD({ ...d, section, row: null, seat: null });
          }}
        />
        <Select
          label="Row"
          data={lists.rows}
          value={d.row}
          disabled={!d.section}
          searchable
          onChange={(row) => {
            setError(null);
            setLists((l) => ({ ...l, seats: [] }));
            setD({ ...d, row, seat: null });
          }}
        />
        <Select
          label="Seat"
          data={lists.seats}
          value={d.seat}
          disabled={!d.row}
          searchable
          onChange={(seat) => {
            setError(null);
            setD({ ...d, seat });
          }}
        />
        {error && (
          <Text c="red" size="sm" data-testid="block-seat-error">
            {error}
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={handleAdd}>Add</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
