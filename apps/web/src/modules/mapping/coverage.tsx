import { useMemo } from 'react';
import { Badge, Group, Paper, SimpleGrid, Stack, Text, Tooltip } from '@mantine/core';
import { camerasForSeat, type SeatMap } from '@stadiumcam/contract';

const COLORS = ['#228be6', '#40c057', '#fab005', '#be4bdb', '#fd7e14', '#15aabf', '#e64980', '#82c91e'];
const GAP = '#fa5252';
const OVERLAP = '#212529';
const CELL = 7;

type Cell = { row: string; seat: number; cams: string[] };
type SectionCoverage = { type: string; name: string; rows: string[]; seats: number[]; cells: Cell[] };

/**
 * Every section's seats: the rows and seats its regions span (any camera), each with the
 * cameras covering it. A seat inside that span that no camera covers is a gap.
 */
export function coverageOf(map: SeatMap): SectionCoverage[] {
  const spans = new Map<string, { type: string; name: string; lo: number; hi: number; mins: number; maxs: number }>();
  for (const c of map.cameras)
    for (const s of c.sections)
      for (const r of s.regions) {
        const key = `${s.type}\n${s.name}`;
        const lo = map.rows.indexOf(r.minr);
        const hi = map.rows.indexOf(r.maxr);
        const prev = spans.get(key);
        spans.set(key, {
          type: s.type,
          name: s.name,
          lo: Math.min(prev?.lo ?? lo, lo),
          hi: Math.max(prev?.hi ?? hi, hi),
          mins: Math.min(prev?.mins ?? r.mins, r.mins),
          maxs: Math.max(prev?.maxs ?? r.maxs, r.maxs),
        });
      }
  return [...spans.values()]
    .sort((a, b) => a.type.localeCompare(b.type) || a.name.localeCompare(b.name, undefined, { numeric: true }))
    .map((s) => {
      const rows = map.rows.slice(s.lo, s.hi + 1).reverse();
      const seats = Array.from({ length: s.maxs - s.mins + 1 }, (_, i) => s.mins + i);
      const cells = rows.flatMap((row) =>
        seats.map((seat) => ({
          row,
          seat,
          cams: camerasForSeat(map, { seatType: s.type, section: s.name, row, seat: String(seat) }).map(
            (h) => h.camera.camera,
          ),
        })),
      );
      return { type: s.type, name: s.name, rows, seats, cells };
    });
}

const seatList = (cells: { row: string; seat: number }[]) =>
  cells.length > 6
    ? `${cells
        .slice(0, 6)
        .map((c) => `${c.row}-${c.seat}`)
        .join(', ')} … (${cells.length})`
    : cells.map((c) => `${c.row}-${c.seat}`).join(', ');

/** The coverage view: each section drawn rows × seats, coloured by the camera covering each seat. */
export function CoverageView({ map }: { map: SeatMap }) {
  const sections = useMemo(() => coverageOf(map), [map]);
  const color = new Map(map.cameras.map((c, i) => [c.camera, COLORS[i % COLORS.length]]));
  const gaps = sections.flatMap((s) => s.cells.filter((c) => !c.cams.length).map((c) => ({ ...c, s })));
  const overlaps = sections.flatMap((s) => s.cells.filter((c) => c.cams.length > 1).map((c) => ({ ...c, s })));
  const bySection = (list: typeof gaps) => {
    const out = new Map<string, typeof gaps>();
    for (const g of list) out.set(`${g.s.type} ${g.s.name}`, [...(out.get(`${g.s.type} ${g.s.name}`) ?? []), g]);
    return [...out];
  };
  if (!sections.length) return <Text c="dimmed">No Mapping Info found</Text>;
  return (
    <Stack gap="sm" data-testid="coverage">
      <Group gap="xs">
        {map.cameras.map((c) => (
          <Badge key={c.camera} color={color.get(c.camera)} variant="filled">
            {c.camera}
          </Badge>
        ))}
        <Badge color={GAP} variant="filled">
          not covered
        </Badge>
        <Badge color={OVERLAP} variant="filled">
          several cameras
        </Badge>
      </Group>
      <SimpleGrid cols={{ base: 4, xl: 8 }} spacing="xs">
        {sections.map((s) => (
          <Paper key={`${s.type}-${s.name}`} withBorder p={4}>
            <Text size="xs" fw={600}>
              {s.name}{' '}
              <Text span size="xs" c="dimmed">
                ({s.type})
              </Text>
            </Text>
            <svg
              width={s.seats.length * CELL}
              height={s.rows.length * CELL}
              role="img"
              aria-label={`Coverage of ${s.type} ${s.name}`}
            >
              {s.cells.map((c) => (
                <rect
                  key={`${c.row}-${c.seat}`}
                  x={(c.seat - s.seats[0]) * CELL}
                  y={s.rows.indexOf(c.row) * CELL}
                  width={CELL - 1}
                  height={CELL - 1}
                  fill={!c.cams.length ? GAP : c.cams.length > 1 ? OVERLAP : color.get(c.cams[0])}
                >
                  <title>{`Row ${c.row} seat ${c.seat}: ${c.cams.join(', ') || 'no camera'}`}</title>
                </rect>
              ))}
            </svg>
          </Paper>
        ))}
      </SimpleGrid>
      <Text size="sm" fw={600}>
        Gaps ({gaps.length} seats)
      </Text>
      {gaps.length ? (
        bySection(gaps).map(([name, cells]) => (
          <Text key={name} size="xs" data-testid="coverage-gap">
            {name}: {seatList(cells)}
          </Text>
        ))
      ) : (
        <Text size="xs" c="dimmed">
          Every seat of every mapped section has a camera.
        </Text>
      )}
      <Text size="sm" fw={600}>
        Overlaps ({overlaps.length} seats)
      </Text>
      {overlaps.length ? (
        bySection(overlaps).map(([name, cells]) => (
          <Tooltip key={name} label={[...new Set(cells.flatMap((c) => c.cams))].join(', ')}>
            <Text size="xs" data-testid="coverage-overlap">
              {name}: {seatList(cells)}
            </Text>
          </Tooltip>
        ))
      ) : (
        <Text size="xs" c="dimmed">
          No seat is covered by two cameras.
        </Text>
      )}
    </Stack>
  );
}
