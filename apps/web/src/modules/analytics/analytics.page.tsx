import { useEffect } from 'react';
import { AreaChart, BarChart } from '@mantine/charts';
import { Alert, Anchor, Button, Group, Image, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { IconDownload, IconPrinter } from '@tabler/icons-react';
import { useNavigate, useParams } from 'react-router';
import {
  DEMO_REQUEST_MAILTO,
  FACE_TRAITS,
  MSG,
  analyticsRoutes,
  buildPath,
  type BasicAnalytics,
  type PastEventData,
} from '@stadiumcam/contract';
import { EventSelector } from '../events/event-selector.tsx';
import { useSelectedEvents } from '../events/selection.store.ts';
import { CountsPanel, EmotionsChart, Fallback, Figure, Panel, timeAxisTitle, timeLabel } from './analytics-charts.tsx';
import { useAnalytics, useLiveAnalytics, type Bucket } from './analytics.hooks.ts';
import classes from './analytics.module.css';
import { SeatHeatmap } from './seat-heatmap.tsx';

const NO_DATA = MSG.analytics.noData;

function Figures({ basic, past }: { basic: BasicAnalytics; past: PastEventData | undefined }) {
  const change = (k: string) => past?.change[k];
  return (
    <Stack gap="xs">
      {/* Seven figures in one row on a wide screen, never one alone on a second row. */}
      <SimpleGrid cols={{ base: 2, sm: 4, lg: 7 }} spacing="sm">
        <Figure label="Users" value={basic.users} change={change('users')} />
        <Figure label="Snapshots" value={basic.snapshots} change={change('snapshots')} />
        <Figure label="Shares" value={basic.shares} change={change('shares')} />
        <Figure label="Share rate" value={basic.shareRate} suffix="%" change={change('shareRate')} />
        <Figure label="Photo share rate" value={basic.photoShareRate} suffix="%" change={change('photoShareRate')} />
        <Figure
          label="Engaged users (average)"
          value={basic.engagedUsers.average}
          change={change('engagedUsersAverage')}
        />
        <Figure
          label="Engaged users (median)"
          value={basic.engagedUsers.median}
          change={change('engagedUsersMedian')}
        />
      </SimpleGrid>
      {past?.event && (
        <Text size="xs" c="dimmed">
          Changes compared with {past.event.title} ({past.event.gameDate}).
        </Text>
      )}
    </Stack>
  );
}

function BasicSection({ basic, past }: { basic: Bucket<BasicAnalytics>; past: Bucket<PastEventData> }) {
  if (basic.error) return <Alert color="red">{basic.error}</Alert>;
  const b = basic.data;
  if (!b) return <Panel title="Basic figures" loading children={null} />;
  const points = b.timeline.points.map((p) => ({ ...p, time: timeLabel(p.local) }));
  const axis = timeAxisTitle(b.timeline.points, b.event.timezone);
  return (
    <Stack gap="md">
      <Figures basic={b} past={past.data} />
      <SimpleGrid cols={{ base: 1, lg: 2 }} className={classes.grid}>
        <Panel
          title="Users, snapshots and shares"
          testId="panel-timeline"
          table={{
            head: [axis, 'Users', 'Snapshots', 'Shares'],
            rows: b.timeline.points.map((p) => [timeLabel(p.local), p.users, p.snapshots, p.shares]),
          }}
        >
          {points.length ? (
            <AreaChart
              h={260}
              data={points}
              dataKey="time"
              xAxisLabel={axis}
              curveType="linear"
              withLegend
              series={[
                { name: 'users', label: 'Users', color: 'indigo.6' },
                { name: 'snapshots', label: 'Snapshots', color: 'teal.6' },
                { name: 'shares', label: 'Shares', color: 'orange.6' },
              ]}
            />
          ) : (
            <Fallback text={NO_DATA} />
          )}
        </Panel>
        <Panel
          title="Overlay usage"
          testId="panel-overlays"
          table={{
            head: ['Overlay', 'Photos', '%'],
            rows: b.overlayUsage.map((o) => [o.overlay ?? 'None', o.count, o.percentage]),
          }}
        >
          {b.overlayUsage.length ? (
            <Table className={classes.noPrint} verticalSpacing={4}>
              <Table.Tbody>
                {b.overlayUsage.map((o) => (
                  <Table.Tr key={o.overlay ?? ''}>
                    <Table.Td w={72}>
                      {o.overlay === null ? (
                        <Text size="xs">No overlay</Text>
                      ) : o.url ? (
                        <Image src={o.url} w={56} h={56} fit="contain" alt={o.overlay} />
                      ) : (
                        <Text size="xs" c="dimmed">
                          {MSG.analytics.overlayNotAvailable}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>{o.count.toLocaleString('en-US')} photos</Table.Td>
                    <Table.Td>{o.percentage}%</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          ) : (
            <Fallback text={NO_DATA} />
          )}
        </Panel>
        <CountsPanel
          title="Share insights"
          label="Platform"
          color="orange.6"
          data={b.shareInsights.map((s) => ({ x: s.socialSource, count: s.count }))}
          empty={NO_DATA}
        />
        <Panel title="Engaged users" testId="panel-engaged">
          <Text size="sm">
            Average group size {b.engagedUsers.averageGroupSize} × {b.users} devices = <b>{b.engagedUsers.average}</b>
          </Text>
          <Text size="sm">
            Median group size {b.engagedUsers.medianGroupSize} × {b.users} devices = <b>{b.engagedUsers.median}</b>
          </Text>
          <Text size="xs" c="dimmed" mt={4}>
            From {b.engagedUsers.photosWithFaces.toLocaleString('en-US')} photos with face data.
          </Text>
        </Panel>
        <CountsPanel title="Top sections" label="Section" data={b.sections} empty={NO_DATA} />
        <CountsPanel title="Top rows" label="Row" data={b.rows} empty={NO_DATA} />
      </SimpleGrid>
    </Stack>
  );
}

const WEB_TITLES = {
  age: 'Age',
  gender: 'Gender',
  country: 'Country',
  city: 'City',
  language: 'Language',
  interest: 'Interest',
  device: 'Device',
  screen: 'Screen',
  page: 'Pages',
} as const;

function WebSection({ ga }: { ga: ReturnType<typeof useAnalytics>['ga'] }) {
  if (!ga.allowed) return null;
  return (
    <Stack gap="sm">
      <Title order={3}>Web analytics</Title>
      {ga.error && <Alert color="red">{ga.error}</Alert>}
      {!ga.error && (
        <SimpleGrid cols={{ base: 1, md: 2, lg: 3 }} className={classes.grid}>
          {(Object.keys(WEB_TITLES) as (keyof typeof WEB_TITLES)[]).map((k) => (
            <CountsPanel
              key={k}
              title={WEB_TITLES[k]}
              label={WEB_TITLES[k]}
              color="cyan.6"
              loading={ga.isFetching}
              data={ga.data?.panels[k]}
              empty={MSG.analytics.webNotAvailable}
            />
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}

function VisionSection({ vision }: { vision: ReturnType<typeof useAnalytics>['vision'] }) {
  if (!vision.allowed)
    return (
      <Alert title="Vision analytics" color="gray" data-testid="vision-upgrade">
        <Text size="sm">{MSG.analytics.visionUpgrade}</Text>
        <Anchor href={DEMO_REQUEST_MAILTO} size="sm" fw={600}>
          {MSG.analytics.requestDemo}
        </Anchor>
      </Alert>
    );
  const v = vision.data;
  return (
    <Stack gap="sm">
      <Title order={3}>Vision</Title>
      {vision.error && <Alert color="red">{vision.error}</Alert>}
      {vision.isFetching && <Panel title="Vision" loading children={null} />}
      {v && !v.hasValues && <Fallback text={MSG.analytics.visionNotAvailable} />}
      {v?.hasValues && (
        <Stack gap="md">
          {v.emotions.points.length > 0 && <EmotionsChart points={v.emotions.points} />}
          <SimpleGrid cols={{ base: 1, lg: 2 }} className={classes.grid}>
            <CountsPanel
              title="Age range"
              label="Age"
              color="grape.6"
              data={v.ageRange}
              empty={MSG.analytics.visionNotAvailable}
            />
            <CountsPanel
              title="Gender"
              label="Gender"
              color="pink.6"
              data={v.gender}
              empty={MSG.analytics.visionNotAvailable}
            />
            <Panel
              title="Face traits"
              testId="panel-traits"
              table={{
                head: ['Trait', 'Yes', 'No'],
                rows: FACE_TRAITS.map((t) => [t, v.traits[t].yes, v.traits[t].no]),
              }}
            >
              <BarChart
                h={260}
                data={FACE_TRAITS.map((t) => ({ trait: t, ...v.traits[t] }))}
                dataKey="trait"
                type="stacked"
                withLegend
                series={[
                  { name: 'yes', label: 'Yes', color: 'teal.6' },
                  { name: 'no', label: 'No', color: 'gray.5' },
                ]}
              />
            </Panel>
          </SimpleGrid>
        </Stack>
      )}
    </Stack>
  );
}

/** Analytics page (spec 3 §2.4): /analytics/:eventId? follows the selected event. */
export function AnalyticsPage() {
  const { eventId } = useParams();
  const navigate = useNavigate();
  const { events } = useSelectedEvents();
  const event = events[0];
  const slugDate = event?.slugDate;
  const live = event?.eventStatus === 'live';

  useEffect(() => {
    if (event && eventId !== event._id) void navigate(`/analytics/${event._id}`, { replace: true });
  }, [event, eventId, navigate]);

  const { basic, ga, vision, pastEvent } = useAnalytics(slugDate, event?.eventStatus);
  useLiveAnalytics(slugDate, live);

  return (
    <Stack gap="md" className={classes.page}>
      <Group justify="space-between" wrap="wrap">
        <Group gap="md">
          <Title order={2}>{MSG.analytics.title}</Title>
          <Text c="dimmed" className={classes.printTable}>
            {event?.title}
          </Text>
          <div className={classes.noPrint}>
            <EventSelector />
          </div>
        </Group>
        <Group gap="xs" className={classes.noPrint}>
          <Button variant="default" leftSection={<IconPrinter size={16} />} onClick={() => window.print()}>
            Print
          </Button>
          {slugDate && !live && (
            <Button
              component="a"
              href={buildPath(analyticsRoutes.export.path, { slugDate })}
              download
              leftSection={<IconDownload size={16} />}
            >
              {MSG.analytics.exportData}
            </Button>
          )}
        </Group>
      </Group>
      {!event ? (
        <Fallback text={MSG.album.selectEvent} />
      ) : (
        <>
          <BasicSection basic={basic} past={pastEvent} />
          <SeatHeatmap
            key={event.slugDate}
            slugDate={event.slugDate}
            title={event.title}
            live={live}
            defaultCompare={pastEvent.data?.event?.slugDate ?? null}
          />
          <WebSection ga={ga} />
          <VisionSection vision={vision} />
        </>
      )}
    </Stack>
  );
}
