import { useState } from 'react';
import { Button, Center, Drawer, Group, Loader, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconActivity, IconSpeakerphone } from '@tabler/icons-react';
import { MSG, P } from '@stadiumcam/contract';
import { useCan } from '../auth/session.hooks.ts';
import { useLiveMetrics } from './events.hooks.ts';
import { PromotionModal } from './promotion.modal.tsx';
import { useSelectedEvents } from './selection.store.ts';

const METRICS = [
  { key: 'current', label: 'Current' },
  { key: 'peak', label: 'Peak' },
  { key: 'snapshots', label: 'Snapshots' },
  { key: 'shares', label: 'Shares' },
] as const;

/** Live Metrics button and drawer (spec 1 §2): only while the selected event is live. */
export function LiveMetricsButton() {
  const allowed = useCan(P.LIVE_METRIC);
  const { events } = useSelectedEvents();
  const event = events.length === 1 && events[0].eventStatus === 'live' && !events[0].template ? events[0] : undefined;
  const [opened, setOpened] = useState(false);
  const [promoOpened, setPromoOpened] = useState(false);
  const metrics = useLiveMetrics(event?.slugDate, opened && !!event);

  if (!allowed || !event) return null;

  return (
    <>
      <Button
        variant="light"
        color="red"
        size="xs"
        leftSection={<IconActivity size={16} />}
        onClick={() => setOpened(true)}
      >
        Live Metrics
      </Button>
      <Drawer
        opened={opened}
        onClose={() => setOpened(false)}
        position="right"
        size={360}
        title={<Text fw={600}>Live Metrics</Text>}
        data-testid="live-metrics-drawer"
      >
        <Stack>
          <Text size="sm" c="dimmed" truncate>
            {event.title}
          </Text>
          {metrics.isPending ? (
            <Center h={160}>
              <Loader />
            </Center>
          ) : metrics.isError ? (
            <Text c="red">{MSG.events.metricsFailed}</Text>
          ) : (
            <SimpleGrid cols={2} spacing="sm">
              {METRICS.map((m) => (
                <Paper key={m.key} withBorder p="md" radius="md" data-testid={`metric-${m.key}`}>
                  <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
                    {m.label}
                  </Text>
                  <Text fz={28} fw={700} lh={1.2}>
                    {metrics.data[m.key]}
                  </Text>
                </Paper>
              ))}
            </SimpleGrid>
          )}
          <Group>
            <Button variant="default" leftSection={<IconSpeakerphone size={16} />} onClick={() => setPromoOpened(true)}>
              Promo
            </Button>
          </Group>
        </Stack>
      </Drawer>
      <PromotionModal
        opened={promoOpened}
        onClose={() => setPromoOpened(false)}
        slugDate={event.slugDate}
        timezone={event.timezone}
      />
    </>
  );
}
