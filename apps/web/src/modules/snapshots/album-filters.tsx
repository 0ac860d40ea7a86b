import { memo, useState, type ReactNode } from 'react';
import {
  Alert,
  Button,
  Chip,
  Divider,
  Group,
  Loader,
  MultiSelect,
  RangeSlider,
  ScrollArea,
  SegmentedControl,
  Stack,
  TagsInput,
  Text,
  Title,
} from '@mantine/core';
import { IconAlertTriangle, IconFilterOff } from '@tabler/icons-react';
import {
  MSG,
  AGE_RANGE,
  EMOTIONS,
  GENDER_FILTERS,
  GROUP_SIZE_RANGE,
  MINUTES_PER_DAY,
  overlayLabel,
  type FilterOptions,
} from '@stadiumcam/contract';
import { EMPTY_FILTER, filterToQuery, minutesLabel12, type AlbumFilter, type SeatType } from './album-filter.ts';

type Props = {
  /** The label of the event's zone ("CDT"): the time slider reads that zone's clock. */
  zone: string;
  filter: AlbumFilter;
  onChange: (filter: AlbumFilter) => void;
  options: FilterOptions | undefined;
  loading: boolean;
  error: boolean;
};

const SEAT_TYPE_LABELS: Record<string, string> = {
  section: 'Section',
  box: 'Box',
  suite: 'Suite',
  custom_type_1: 'Custom type 1',
  custom_type_2: 'Custom type 2',
  custom_type_3: 'Custom type 3',
};

/** A range slider that reports only when the operator lets go: one query per move. */
function CommittedRange(props: {
  label: string;
  value: [number, number];
  min: number;
  max: number;
  format?: (v: number) => string;
  onCommit: (v: [number, number]) => void;
}) {
  const [value, setValue] = useState(props.value);
  const format = props.format ?? String;
  return (
    <Stack gap={4}>
      <Group justify="space-between">
        <Text size="sm" fw={500}>
          {props.label}
        </Text>
        <Text size="xs" c="dimmed" data-testid={`range-${props.label}`}>
          {format(value[0])} – {format(value[1])}
        </Text>
      </Group>
      <RangeSlider
        aria-label={props.label}
        thumbFromLabel={`${props.label} from`}
        thumbToLabel={`${props.label} to`}
        min={props.min}
        max={props.max}
        step={1}
        minRange={0}
        value={value}
        onChange={setValue}
        onChangeEnd={props.onCommit}
        label={format}
        size="sm"
      />
    </Stack>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack gap="xs">
      <Text size="xs" tt="uppercase" fw={700} c="dimmed">
        {title}
      </Text>
      {children}
    </Stack>
  );
}

/** The album's filter side bar (spec 1 §2, §3, §5). Every change resets the pages. */
/** The album's `/` shortcut focuses this field. */
export const USER_FILTER_ID = 'album-user-filter';

export const AlbumFilters = memo(function AlbumFilters({ zone, filter, onChange, options, loading, error }: Props) {
  const set = <K extends keyof AlbumFilter>(key: K, value: AlbumFilter[K]) => onChange({ ...filter, [key]: value });
  const active = Object.keys(filterToQuery(filter)).length > 0;

  const select = (
    key: 'section' | 'box' | 'suite' | 'row' | 'seat' | 'camera' | 'overlay',
    label: string,
    data: string[],
  ) =>
    (data.length > 0 || filter[key].length > 0) && (
      <MultiSelect
        label={label}
        placeholder={filter[key].length ? undefined : 'Any'}
        // Overlays by their file names (overlayLabel; issue 28 point 5).
        data={[...new Set([...data, ...filter[key]])].map((v) => ({
          value: v,
          label: key === 'overlay' ? overlayLabel(v) : v,
        }))}
        value={filter[key]}
        onChange={(v) => set(key, v)}
        searchable
        clearable
        size="xs"
        comboboxProps={{ withinPortal: true }}
      />
    );

  return (
    <Stack gap={0} h="100%" data-testid="album-filters">
      <Group justify="space-between" px="sm" py={8}>
        <Title order={5}>Filters</Title>
        <Button
          size="compact-xs"
          variant="subtle"
          leftSection={<IconFilterOff size={14} />}
          disabled={!active}
          onClick={() => onChange(EMPTY_FILTER)}
        >
          Clear
        </Button>
      </Group>
      <Divider />
      <ScrollArea style={{ flex: 1 }} px="sm" py="sm" type="auto">
        <Stack gap="md" pb="md">
          {error && (
            <Alert color="red" icon={<IconAlertTriangle size={16} />} p="xs">
              {MSG.album.filterOptionsFailed}
            </Alert>
          )}
          {loading && <Loader size="sm" mx="auto" />}
          <Section title="Seats">
            {options && options.seatTypes.length > 0 && (
              <MultiSelect
                label="Seat type"
                placeholder={filter.seatType.length ? undefined : 'Any'}
                data={options.seatTypes.map((t) => ({ value: t, label: SEAT_TYPE_LABELS[t] ?? t }))}
                value={filter.seatType}
                onChange={(v) => set('seatType', v as SeatType[])}
                clearable
                size="xs"
              />
            )}
            {select('section', 'Section', options?.sections ?? [])}
            {select('box', 'Box', options?.boxes ?? [])}
            {select('suite', 'Suite', options?.suites ?? [])}
            {select('row', 'Row', options?.rows ?? [])}
            {select('seat', 'Seat', options?.seats ?? [])}
          </Section>
          <Section title="Photo">
            {select('camera', 'Camera', options?.cameras ?? [])}
            {select('overlay', 'Overlay', options?.overlays ?? [])}
            <TagsInput
              id={USER_FILTER_ID}
              label="User ID"
              placeholder={filter.userId.length ? undefined : 'Type an id, press Enter'}
              value={filter.userId}
              onChange={(v) => set('userId', v)}
              clearable
              size="xs"
            />
          </Section>
          {options?.hasFaceData && (
            <Section title="Image mining">
              <CommittedRange
                key={`age-${filter.age.join('-')}`}
                label="Age"
                min={AGE_RANGE.min}
                max={AGE_RANGE.max}
                value={filter.age}
                onCommit={(v) => set('age', v)}
              />
              <CommittedRange
                key={`group-${filter.groupSize.join('-')}`}
                label="Group size"
                min={GROUP_SIZE_RANGE.min}
                max={GROUP_SIZE_RANGE.max}
                value={filter.groupSize}
                onCommit={(v) => set('groupSize', v)}
              />
              <Stack gap={4}>
                <Text size="sm" fw={500}>
                  Gender
                </Text>
                <SegmentedControl
                  size="xs"
                  fullWidth
                  data={[...GENDER_FILTERS]}
                  value={filter.gender}
                  onChange={(v) => set('gender', v)}
                  aria-label="Gender"
                />
              </Stack>
              <Stack gap={4}>
                <Text size="sm" fw={500}>
                  Emotions
                </Text>
                <Chip.Group multiple value={filter.emotion} onChange={(v) => set('emotion', v)}>
                  <Group gap={6}>
                    {EMOTIONS.map((e) => (
                      <Chip key={e} value={e} size="xs" variant="outline">
                        {e}
                      </Chip>
                    ))}
                  </Group>
                </Chip.Group>
              </Stack>
              <CommittedRange
                key={`time-${filter.time.join('-')}`}
                label={`Time (${zone})`}
                min={0}
                max={MINUTES_PER_DAY}
                value={filter.time}
                format={minutesLabel12}
                onCommit={(v) => set('time', v)}
              />
            </Section>
          )}
        </Stack>
      </ScrollArea>
    </Stack>
  );
});
