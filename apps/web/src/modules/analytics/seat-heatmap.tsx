import { useMemo, useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Alert, Group, Loader, SegmentedControl, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import {
  HEATMAP_METRICS,
  MSG,
  analyticsRoutes as r,
  type Heatmap,
  type HeatmapMetric,
  type HeatmapQuery,
} from '@stadiumcam/contract';
import { api } from '../../ui/api.ts';
import { useLiveRefresh } from '../../ui/live-refresh.hooks.ts';
import { useEventList } from '../events/events.hooks.ts';
import { Panel } from './analytics-charts.tsx';
import {
  BOWL,
  DIFF_STOPS,
  HEAT_STOPS,
  NONE,
  bowlLayout,
  diffColor,
  fieldEllipse,
  heatColor,
  inkOn,
  placeText,
  sectionKey,
  sectionName,
  signed,
  type HeatSection,
  type Sector,
} from './heatmap-model.ts';
import classes from './analytics.module.css';

const METRIC_LABEL: Record<HeatmapMetric, string> = { joins: 'Joins', photos: 'Photos', shares: 'Shares' };
const HINT = 'Point at a section for its count; click it (or Enter) for its rows and seats.';
const CELL = 15;

type Mode = 'side' | 'diff';
type Picked = { seatType: string; section: string };
/** What one map shows: a value per place, its colour and its hover text. */
type Paint = { value: (s: { count: number; compareCount: number | null }) => number; color: (n: number) => string };

const heatmapKey = (slugDate: string) => ['analytics', 'heatmap', slugDate] as const;

/** The bowl keeps its last answer while another metric or comparison loads; a section's seats do not. */
function useHeatmap(slugDate: string, query: HeatmapQuery, enabled = true) {
  return useQuery({
    queryKey: [...heatmapKey(slugDate), query],
    queryFn: () => api(r.heatmap, { params: { slugDate }, query }),
    enabled,
    placeholderData: query.section === undefined ? keepPreviousData : undefined,
    retry: false,
  });
}

/** One bowl: every section a sector, coloured, with its text on hover and focus; a click picks it. */
function Bowl({
  label,
  sectors,
  paint,
  text,
  picked,
  onPick,
  onHover,
}: {
  label: string;
  sectors: Sector[];
  paint: Paint;
  text: (s: HeatSection) => string;
  picked: string | null;
  onPick: (s: HeatSection) => void;
  onHover: (t: string | null) => void;
}) {
  const field = fieldEllipse();
  return (
    <svg viewBox={`0 0 ${BOWL.width} ${BOWL.height}`} className={classes.bowl} role="group" aria-label={label}>
      <ellipse {...field} fill="#b2f2bb" stroke="#69db7c" />
      <text x={field.cx} y={field.cy} textAnchor="middle" dominantBaseline="middle" fontSize={13} fill="#1b4d2b">
        Field
      </text>
      {sectors.map((s) => {
        const fill = paint.color(paint.value(s.section));
        const words = text(s.section);
        const selected = picked === s.key;
        return (
          <g
            key={s.key}
            role="button"
            tabIndex={0}
            aria-label={words}
            aria-pressed={selected}
            data-section={s.section.section}
            className={classes.sector}
            onClick={() => onPick(s.section)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' || e.key === ' ') {
                e.preventDefault();
                onPick(s.section);
              }
            }}
            onMouseEnter={() => onHover(words)}
            onMouseLeave={() => onHover(null)}
            onFocus={() => onHover(words)}
            onBlur={() => onHover(null)}
          >
            <title>{words}</title>
            <path
              d={s.path}
              fill={fill}
              stroke={selected ? '#1c7ed6' : '#ffffff'}
              strokeWidth={selected ? 3 : 1}
              data-fill={fill}
            />
            <text
              x={s.labelX}
              y={s.labelY}
              textAnchor="middle"
              dominantBaseline="middle"
              fontSize={10}
              fill={inkOn(fill)}
              pointerEvents="none"
            >
              {s.section.section}
            </text>
          </g>
        );
      })}
    </svg>
  );
}

function Legend({
  mode,
  max,
  metric,
  compareTitle,
}: {
  mode: Mode;
  max: number;
  metric: HeatmapMetric;
  compareTitle?: string;
}) {
  const stops = mode === 'diff' ? DIFF_STOPS : HEAT_STOPS;
  const gradient = `linear-gradient(to right, ${stops.join(', ')})`;
  const unit = METRIC_LABEL[metric].toLowerCase();
  return (
    <Stack gap={2} data-testid="heatmap-legend" className={classes.heatLegend}>
      <Group gap="xs" wrap="nowrap">
        {max > 0 && (
          <>
            <Text size="xs">{mode === 'diff' ? `−${max.toLocaleString('en-US')}` : '1'}</Text>
            <div className={classes.heatRamp} style={{ background: gradient }} />
            <Text size="xs">{mode === 'diff' ? `+${max.toLocaleString('en-US')}` : max.toLocaleString('en-US')}</Text>
          </>
        )}
        <span className={classes.swatch} style={{ background: NONE, border: '1px solid #ced4da' }} />
        <Text size="xs">{mode === 'diff' ? 'no change' : `no ${unit}`}</Text>
      </Group>
      <Text size="xs" c="dimmed">
        {mode === 'diff'
          ? `${METRIC_LABEL[metric]} per section and seat: more than ${compareTitle} (magenta) or fewer (blue).`
          : `${METRIC_LABEL[metric]} per section and seat; both maps use the same scale.`}
      </Text>
    </Stack>
  );
}

/** A section's rows × seats (highest row on top, as seen from the field), coloured like the bowl. */
function SeatGrid({
  label,
  section,
  seats,
  paint,
  text,
  onHover,
}: {
  label: string;
  section: HeatSection;
  seats: NonNullable<Heatmap['seats']>;
  paint: Paint;
  text: (row: string, seat: string, c: { count: number; compareCount: number | null }) => string;
  onHover: (t: string | null) => void;
}) {
  const byKey = new Map(seats.map((s) => [`${s.row}\n${s.seat}`, s]));
  const rows = [...section.rows].reverse();
  const numbers = Array.from({ length: Math.max(0, section.maxs - section.mins + 1) }, (_, i) => section.mins + i);
  const zero = { count: 0, compareCount: section.compareCount === null ? null : 0 };
  const W = 28 + numbers.length * CELL;
  const H = 14 + rows.length * CELL;
  return (
    <svg width={W} height={H} role="group" aria-label={label} className={classes.seatGrid}>
      {numbers.map((n, i) =>
        i % 5 === 0 || i === numbers.length - 1 ? (
          <text key={n} x={28 + i * CELL + CELL / 2} y={10} fontSize={9} textAnchor="middle" fill="currentColor">
            {n}
          </text>
        ) : null,
      )}
      {rows.map((row, j) => (
        <g key={row}>
          <text
            x={22}
            y={14 + j * CELL + CELL / 2}
            fontSize={9}
            textAnchor="end"
            dominantBaseline="middle"
            fill="currentColor"
          >
            {row}
          </text>
          {numbers.map((n, i) => {
            const c = byKey.get(`${row}\n${n}`) ?? zero;
            const words = text(row, String(n), c);
            return (
              <rect
                key={n}
                x={28 + i * CELL}
                y={14 + j * CELL}
                width={CELL - 1}
                height={CELL - 1}
                fill={paint.color(paint.value(c))}
                role="img"
                aria-label={words}
                onMouseEnter={() => onHover(words)}
                onMouseLeave={() => onHover(null)}
              >
                <title>{words}</title>
              </rect>
            );
          })}
        </g>
      ))}
    </svg>
  );
}

/**
 * The seat heat map of the Analytics page (issue 32 point 3): the bowl from the seat map
 * coloured by joins, photos or shares per section, a click shows the section's seats; beside it
 * the same for a chosen past event (the previous one with photos by default), or the
 * difference between them.
 */
export function SeatHeatmap({
  slugDate,
  title,
  live,
  defaultCompare,
}: {
  slugDate: string;
  title: string;
  live: boolean;
  defaultCompare: string | null;
}) {
  const [metric, setMetric] = useState<HeatmapMetric>('photos');
  const [chosen, setChosen] = useState<string | null | undefined>(undefined);
  const [mode, setMode] = useState<Mode>('side');
  const [picked, setPicked] = useState<Picked | null>(null);
  const [hover, setHover] = useState<string | null>(null);
  const compare = chosen === undefined ? defaultCompare : chosen;
  const events = useEventList();
  const base = { metric, ...(compare ? { compare } : {}) };
  const main = useHeatmap(slugDate, base);
  const seatsQ = useHeatmap(slugDate, { ...base, ...(picked ?? {}) }, picked !== null);
  useLiveRefresh(slugDate, live, heatmapKey(slugDate));

  const data = main.data;
  const sectors = useMemo(() => bowlLayout(data?.sections ?? []), [data]);
  const options = (events.data ?? [])
    .filter((e) => !e.template && e.slugDate !== slugDate)
    .sort((a, b) => (b.gameDate ?? '').localeCompare(a.gameDate ?? ''))
    .map((e) => ({ value: e.slugDate, label: `${e.title} (${e.gameDate ?? 'no date'})` }));

  if (main.isError) return <Alert color="red">{MSG.analytics.heatmapFailed}</Alert>;
  if (!data) return <Panel title="Seat heat map" loading children={null} />;

  const other = data.compare;
  const diffMode = mode === 'diff' && other !== null;
  const counts = data.sections.flatMap((s) => [s.count, s.compareCount ?? 0]);
  const seatRows = seatsQ.data?.seats ?? [];
  // The seats answer carries the extent of a section the seat map does not draw.
  const pickedSection = picked && (seatsQ.data ?? data).sections.find((s) => sectionKey(s) === sectionKey(picked));
  const seatCounts = seatRows.flatMap((s) => [s.count, s.compareCount ?? 0]);
  const diffs = data.sections.map((s) => Math.abs(s.count - (s.compareCount ?? 0)));
  const seatDiffs = seatRows.map((s) => Math.abs(s.count - (s.compareCount ?? 0)));
  const max = Math.max(0, ...counts);
  const maxDiff = Math.max(0, ...diffs);

  const paints = (scale: { count: number; diff: number }): Record<'now' | 'past' | 'diff', Paint> => ({
    now: { value: (c) => c.count, color: (n) => heatColor(n, scale.count) },
    past: { value: (c) => c.compareCount ?? 0, color: (n) => heatColor(n, scale.count) },
    diff: { value: (c) => c.count - (c.compareCount ?? 0), color: (n) => diffColor(n, scale.diff) },
  });
  const bowlPaint = paints({ count: max, diff: maxDiff });
  const seatPaint = paints({ count: Math.max(0, ...seatCounts), diff: Math.max(0, ...seatDiffs) });
  const sectionText = (which: 'now' | 'past' | 'diff') => (s: HeatSection) =>
    which === 'diff'
      ? placeText(sectionName(s), metric, s.count, { compareCount: s.compareCount ?? 0, title: other!.title })
      : placeText(sectionName(s), metric, which === 'now' ? s.count : (s.compareCount ?? 0), null);
  const seatText =
    (which: 'now' | 'past' | 'diff') =>
    (row: string, seat: string, c: { count: number; compareCount: number | null }) => {
      const name = `${sectionName(pickedSection!)} row ${row} seat ${seat}`;
      return which === 'diff'
        ? placeText(name, metric, c.count, { compareCount: c.compareCount ?? 0, title: other!.title })
        : placeText(name, metric, which === 'now' ? c.count : (c.compareCount ?? 0), null);
    };
  const maps: { which: 'now' | 'past' | 'diff'; title: string }[] = diffMode
    ? [{ which: 'diff', title: `${title} against ${other.title}` }]
    : other
      ? [
          { which: 'now', title },
          { which: 'past', title: other.title },
        ]
      : [{ which: 'now', title }];
  const pick = (s: HeatSection) =>
    setPicked((p) => (p && sectionKey(p) === sectionKey(s) ? null : { seatType: s.seatType, section: s.section }));

  const printed = data.sections.filter((s) => s.count || s.compareCount);
  return (
    <Panel
      title={`Seat heat map: ${METRIC_LABEL[metric].toLowerCase()}`}
      testId="panel-heatmap"
      table={{
        head: other ? ['Section', title, other.title, 'Difference'] : ['Section', title],
        rows: printed.map((s) =>
          other
            ? [sectionName(s), s.count, s.compareCount ?? 0, signed(s.count - (s.compareCount ?? 0))]
            : [sectionName(s), s.count],
        ),
      }}
    >
      <Stack gap="sm">
        <Group gap="md" className={classes.noPrint} wrap="wrap">
          <SegmentedControl
            aria-label="Heat map metric"
            value={metric}
            onChange={(v) => setMetric(v)}
            data={HEATMAP_METRICS.map((m) => ({ value: m, label: METRIC_LABEL[m] }))}
          />
          <Select
            aria-label="Compare with"
            placeholder="No comparison"
            data={options}
            value={compare}
            onChange={(v) => setChosen(v)}
            clearable
            searchable
            w={260}
          />
          <SegmentedControl
            aria-label="Comparison view"
            value={mode}
            onChange={(v) => setMode(v)}
            disabled={!other}
            data={[
              { value: 'side', label: 'Side by side' },
              { value: 'diff', label: 'Difference' },
            ]}
          />
          {(main.isFetching || seatsQ.isFetching) && <Loader size="xs" aria-label="Updating the heat map" />}
        </Group>
        {!sectors.length ? (
          <Text c="dimmed" size="sm">
            {MSG.analytics.heatmapNoSeats}
          </Text>
        ) : (
          <>
            <SimpleGrid cols={{ base: 1, md: maps.length }} spacing="md">
              {maps.map((m) => (
                <Stack key={m.which} gap={4}>
                  <Text size="sm" fw={600} ta="center">
                    {m.title}
                  </Text>
                  <Bowl
                    label={`Seat heat map of ${m.title}`}
                    sectors={sectors}
                    paint={bowlPaint[m.which]}
                    text={sectionText(m.which)}
                    picked={picked ? sectionKey(picked) : null}
                    onPick={pick}
                    onHover={setHover}
                  />
                </Stack>
              ))}
            </SimpleGrid>
            <Legend
              mode={diffMode ? 'diff' : 'side'}
              max={diffMode ? maxDiff : max}
              metric={metric}
              compareTitle={other?.title}
            />
            <Text size="sm" data-testid="heatmap-hover" aria-live="polite" className={classes.noPrint}>
              {hover ?? HINT}
            </Text>
          </>
        )}
        {pickedSection && (
          <Stack gap={4} data-testid="heatmap-seats">
            <Text size="sm" fw={600}>
              {sectionName(pickedSection)}: rows × seats
            </Text>
            {seatsQ.isError ? (
              <Alert color="red">{MSG.analytics.heatmapFailed}</Alert>
            ) : (
              <Group gap="lg" align="flex-start">
                {maps.map((m) => (
                  <Stack key={m.which} gap={2}>
                    {maps.length > 1 && <Text size="xs">{m.title}</Text>}
                    <SeatGrid
                      label={`Seats of ${sectionName(pickedSection)}, ${m.title}`}
                      section={pickedSection}
                      seats={seatsQ.data?.seats ?? []}
                      paint={seatPaint[m.which]}
                      text={seatText(m.which)}
                      onHover={setHover}
                    />
                  </Stack>
                ))}
              </Group>
            )}
          </Stack>
        )}
      </Stack>
    </Panel>
  );
}
