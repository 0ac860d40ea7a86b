import { useMemo } from 'react';
import { Badge, Group, Paper, SimpleGrid, Stack, Text, Tooltip } from '@mantine/core';
import type { SeatMap } from '@stadiumcam/contract';
import { coverageLists, coverageOf } from './coverage-model.ts';

const COLORS = ['#228be6', '#40c057', '#fab005', '#be4bdb', '#fd7e14', '#15aabf', '#e64980', '#82c91e'];
const GAP = '#fa5252';
const OVERLAP = '#212529';
const CELL = 7;

/** The coverage view: each section drawn rows × seats, coloured by the camera covering each seat. */
export function CoverageView({ map }: { map: SeatMap }) {
  const sections = useMemo(() => coverageOf(map), [map]);
  const color = new Map(map.cameras.map((c, i) => [c.camera, COLORS[i % COLORS.length]]));
  const { gaps, overlaps, gapSeats, overlapSeats } = useMemo(() => coverageLists(sections), [sections]);
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
        Gaps ({gapSeats} seats)
      </Text>
      {gaps.length ? (
        gaps.map((g) => (
          <Text key={g.section} size="xs" data-testid="coverage-gap">
            {g.section}: {g.seats}
          </Text>
        ))
      ) : (
        <Text size="xs" c="dimmed">
          Every seat of every mapped section has a camera.
        </Text>
      )}
      <Text size="sm" fw={600}>
        Overlaps ({overlapSeats} seats)
      </Text>
      {overlaps.length ? (
        overlaps.map((o) => (
          <Tooltip key={o.section} label={o.cams.join(', ')}>
            <Text size="xs" data-testid="coverage-overlap">
              {o.section}: {o.seats}
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
