import { useState, type ReactNode } from 'react';
import { BarChart, LineChart } from '@mantine/charts';
import { Badge, Button, Group, Loader, Paper, Table, Text, Title } from '@mantine/core';
import { ANALYTICS_EMOTIONS, type AnalyticsEmotion, type Count, type EmotionPoint } from '@stadiumcam/contract';
import dayjs from 'dayjs';
import { DEFAULT_TIMEZONE } from '@stadiumcam/contract';
import { wallZoneLabel } from '../events/event-time.ts';
import { useSelectedEvents } from '../events/selection.store.ts';
import classes from './analytics.module.css';

/** Time axis of the timelines: hh:mm a of the bucket's wall-clock time in the event's zone. */
export const timeLabel = (local: string) => dayjs(local).format('hh:mm a');

/**
 * The title of a timeline's time axis and table column, "Time (CDT)": the ticks are the event
 * zone's wall clock, and, as every time of the console, say which zone (issue 10 point 9).
 */
export const timeAxisTitle = (points: { local: string }[], tz: string | undefined) =>
  points.length ? `Time (${wallZoneLabel(points[0].local, tz || DEFAULT_TIMEZONE)})` : 'Time';

/** Fixed colours per emotion (spec 3 §2.4). */
export const EMOTION_COLORS: Record<AnalyticsEmotion, string> = {
  angry: 'red.7',
  calm: 'teal.6',
  confused: 'grape.6',
  disgusted: 'lime.8',
  fear: 'violet.7',
  happy: 'yellow.6',
  sad: 'blue.6',
  surprised: 'orange.6',
};

/** A panel: title, body (a chart or a fallback text) and, for print, the same data as a table. */
export function Panel({
  title,
  children,
  table,
  loading,
  testId,
}: {
  title: string;
  children: ReactNode;
  table?: { head: string[]; rows: (string | number)[][] };
  loading?: boolean;
  testId?: string;
}) {
  return (
    <Paper withBorder p="md" radius="md" className={classes.panel} data-testid={testId}>
      <Title order={4} mb="sm">
        {title}
      </Title>
      {loading ? <Loader size="sm" aria-label={`Loading ${title}`} /> : children}
      {table && table.rows.length > 0 && (
        <Table className={classes.printTable} withTableBorder withColumnBorders mt="sm" fz="xs">
          <Table.Thead>
            <Table.Tr>
              {table.head.map((h) => (
                <Table.Th key={h}>{h}</Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {table.rows.map((row, i) => (
              <Table.Tr key={i}>
                {row.map((cell, j) => (
                  <Table.Td key={j}>{cell}</Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Paper>
  );
}

export const Fallback = ({ text }: { text: string }) => (
  <Text c="dimmed" size="sm">
    {text}
  </Text>
);

/** A bar chart of counts (top 10 lists, web panels, age groups) with its print table. */
export function CountsPanel({
  title,
  data,
  empty,
  label = 'Label',
  loading,
  color = 'blue.6',
}: {
  title: string;
  data: Count[] | null | undefined;
  empty: string;
  label?: string;
  loading?: boolean;
  color?: string;
}) {
  const has = Boolean(data?.some((c) => c.count > 0));
  return (
    <Panel
      title={title}
      loading={loading}
      testId={`panel-${title}`}
      table={has ? { head: [label, 'Count'], rows: data!.map((c) => [c.x, c.count]) } : undefined}
    >
      {has ? (
        <BarChart h={220} data={data!} dataKey="x" series={[{ name: 'count', label: 'Count', color }]} tickLine="y" />
      ) : (
        <Fallback text={empty} />
      )}
    </Panel>
  );
}

/**
 * The emotions timeline (spec 3 §2.4): eight lines with fixed colours, a legend whose entries
 * toggle their line, hh:mm a axis, height 350; the caller hides it without data.
 */
export function EmotionsChart({ points }: { points: EmotionPoint[] }) {
  const [hidden, setHidden] = useState<Set<AnalyticsEmotion>>(new Set());
  const toggle = (e: AnalyticsEmotion) =>
    setHidden((h) => {
      const next = new Set(h);
      if (next.has(e)) next.delete(e);
      else next.add(e);
      return next;
    });
  const data = points.map((p) => ({ ...p, time: timeLabel(p.local) }));
  const axis = timeAxisTitle(points, useSelectedEvents().events[0]?.timezone);
  return (
    <Panel
      title="Emotions"
      testId="panel-Emotions"
      table={{
        head: [axis, ...ANALYTICS_EMOTIONS],
        rows: points.map((p) => [timeLabel(p.local), ...ANALYTICS_EMOTIONS.map((e) => p[e])]),
      }}
    >
      <Group gap={6} mb="xs" className={classes.noPrint} role="group" aria-label="Emotions legend">
        {ANALYTICS_EMOTIONS.map((e) => (
          <Button
            key={e}
            size="compact-xs"
            variant={hidden.has(e) ? 'default' : 'light'}
            color={EMOTION_COLORS[e].split('.')[0]}
            aria-pressed={!hidden.has(e)}
            onClick={() => toggle(e)}
            leftSection={
              <span
                className={classes.swatch}
                style={{ background: `var(--mantine-color-${EMOTION_COLORS[e].replace('.', '-')})` }}
              />
            }
            td={hidden.has(e) ? 'line-through' : undefined}
          >
            {e}
          </Button>
        ))}
      </Group>
      <LineChart
        h={350}
        data={data}
        dataKey="time"
        xAxisLabel={axis}
        curveType="linear"
        withDots={false}
        series={ANALYTICS_EMOTIONS.filter((e) => !hidden.has(e)).map((e) => ({ name: e, color: EMOTION_COLORS[e] }))}
        data-testid="emotions-chart"
      />
    </Panel>
  );
}

/** A figure with its change against the past event (null: no comparison). */
export function Figure({
  label,
  value,
  change,
  suffix = '',
}: {
  label: string;
  value: number;
  change?: number | null;
  suffix?: string;
}) {
  return (
    <Paper withBorder p="sm" radius="md" className={classes.figure} data-testid={`figure-${label}`}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Group gap="xs" align="baseline">
        <Text fz={26} fw={700}>
          {value.toLocaleString('en-US')}
          {suffix}
        </Text>
        {change !== undefined && change !== null && (
          <Badge color={change >= 0 ? 'teal' : 'red'} variant="light" size="sm">
            {change >= 0 ? '▲ +' : '▼ '}
            {change}%
          </Badge>
        )}
      </Group>
    </Paper>
  );
}
