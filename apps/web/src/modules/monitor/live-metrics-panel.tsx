import { Group, Paper, SimpleGrid, Text } from '@mantine/core';
import { IconCamera, IconShare, IconTrendingUp, IconUsers } from '@tabler/icons-react';
import { MSG } from '@stadiumcam/contract';
import { useLiveMetrics } from '../events/events.hooks.ts';

const ITEMS = [
  { key: 'peak', label: 'Peak', icon: IconTrendingUp },
  { key: 'current', label: 'Current', icon: IconUsers },
  { key: 'snapshots', label: 'Snapshots', icon: IconCamera },
  { key: 'shares', label: 'Shares', icon: IconShare },
] as const;

/** "123,456": thousands separators, whatever the browser's locale (the console is in English). */
const THOUSANDS = new Intl.NumberFormat('en-US');

/** Peak, current, snapshots and shares of the monitored event, kept live by 'monitor metrics'. */
export function LiveMetricsPanel({ slugDate }: { slugDate: string }) {
  const { data, isError } = useLiveMetrics(slugDate, true);
  if (isError) {
    return (
      <Text size="sm" c="red" data-testid="metrics-error">
        {MSG.events.metricsFailed}
      </Text>
    );
  }
  return (
    <SimpleGrid cols={2} spacing={6} data-testid="live-metrics">
      {ITEMS.map(({ key, label, icon: Icon }) => (
        // Label above the value: a 240 px column fits "123,456" in each card only that way.
        <Paper key={key} withBorder px="xs" py={4} radius="sm" data-testid={`metric-card-${key}`}>
          <Group gap={4} wrap="nowrap">
            <Icon size={14} opacity={0.6} />
            <Text size="xs" c="dimmed" truncate>
              {label}
            </Text>
          </Group>
          <Text size="sm" fw={700} ff="monospace" ta="right" data-testid={`metric-${key}`}>
            {data ? THOUSANDS.format(data[key]) : '–'}
          </Text>
        </Paper>
      ))}
    </SimpleGrid>
  );
}
