import { useState } from 'react';
import {
  Accordion,
  ActionIcon,
  Badge,
  Button,
  Checkbox,
  Group,
  Image,
  List,
  Modal,
  NumberInput,
  Paper,
  SimpleGrid,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { modals } from '@mantine/modals';
import { useQuery } from '@tanstack/react-query';
import { IconMap, IconPlus, IconSearch, IconTrash } from '@tabler/icons-react';
import {
  MSG,
  geofenceProblems,
  geofenceRoutes,
  toQueryString,
  type Geofence,
  type GeofenceLocation,
  type GeofenceMap,
} from '@stadiumcam/contract';
import { api, errorText } from '../../ui/api.ts';
import { showErrorModal } from '../../ui/feedback.tsx';
import { TemplatePage } from './template-page.tsx';
import { useSavePart, useTemplatePart } from './template.hooks.ts';

const EMPTY: Geofence = { enabled: false, address: '', radius: 0, latitude: 0, longitude: 0, locations: [] };

/** 'Geofence is not configured properly' with its reasons (spec 2 §5). */
function showProblems(problems: string[]) {
  modals.open({
    title: MSG.templateParts.geofenceInvalid,
    centered: true,
    closeButtonProps: { 'aria-label': 'Close' },
    'data-testid': 'geofence-problems',
    children: (
      <List size="sm">
        {problems.map((p, i) => (
          <List.Item key={i}>{p}</List.Item>
        ))}
      </List>
    ),
  } as Parameters<typeof modals.open>[0]);
}

const mapUrl = (m: GeofenceMap) =>
  geofenceRoutes.map.path + toQueryString({ latitude: m.latitude, longitude: m.longitude, radius: m.radius });

/**
 * Geofence (spec 2 Geofence, §4, §5, §7): enable switch, the reference (address, radius, centre),
 * the map the server draws from them, and the locations. The rules compare with the map on
 * screen, so a changed address or radius needs 'Draw map' again.
 */
export function GeofencePage() {
  const part = useTemplatePart('geofence');
  return <GeofenceEditor key={part.key} part={part} />;
}

function GeofenceEditor({ part }: { part: ReturnType<typeof useTemplatePart<'geofence'>> }) {
  const stored = { ...EMPTY, ...(part.value?.geofence as Partial<Geofence> | undefined) };
  const [g, setG] = useState<Geofence>(stored);
  // The radius as typed: '' (empty) is kept so the rules can say it is required.
  const [radius, setRadius] = useState<number | string>(stored.radius || '');
  const [map, setMap] = useState<GeofenceMap | null>(stored.address && stored.radius > 0 ? stored : null);
  const [adding, setAdding] = useState(false);
  const [finding, setFinding] = useState(false);
  const geocoder = useQuery({ queryKey: ['geocoder'], queryFn: () => api(geofenceRoutes.geocoder) });
  const save = useSavePart('geofence');
  const value = (): Geofence => ({ ...g, radius: typeof radius === 'number' ? radius : NaN });

  const handleFind = async () => {
    setFinding(true);
    try {
      const hit = await api(geofenceRoutes.geocode, { query: { address: g.address } });
      setG((x) => ({ ...x, latitude: hit.latitude, longitude: hit.longitude }));
    } catch (err) {
      showErrorModal(errorText(err, MSG.common.genericError));
    } finally {
      setFinding(false);
    }
  };
  const handleDraw = () => {
    const r = typeof radius === 'number' ? radius : NaN;
    if (!Number.isInteger(r) || r <= 0) return showProblems([MSG.templateParts.geofenceRadiusRequired]);
    setMap({ address: g.address, radius: r, latitude: g.latitude, longitude: g.longitude });
  };
  const handleUpdate = () => {
    const v = value();
    const problems = geofenceProblems(v, map);
    if (v.enabled && problems.length) return showProblems(problems);
    save.mutate({ geofence: { ...v, radius: Number.isFinite(v.radius) ? v.radius : 0 } });
  };

  return (
    <TemplatePage
      title="Geofence"
      loading={part.loading}
      failed={part.event.isError}
      onUpdate={handleUpdate}
      saving={save.isPending}
    >
      <Accordion multiple defaultValue={['settings']} variant="separated" maw={1100}>
        <Accordion.Item value="settings">
          <Accordion.Control>Event Settings</Accordion.Control>
          <Accordion.Panel>
            <Stack gap="md">
              <Switch
                label="Geofence"
                description="Fans may join a queue only from inside the radius"
                checked={g.enabled}
                onChange={(e) => setG({ ...g, enabled: e.currentTarget.checked })}
                data-testid="geofence-enabled"
              />
              <SimpleGrid cols={{ base: 1, md: 2 }}>
                <Paper withBorder p="md" radius="md">
                  <Title order={5} mb="xs">
                    Geofence Reference
                  </Title>
                  <Stack gap="xs">
                    <Group align="flex-end" gap="xs" wrap="nowrap">
                      <TextInput
                        label="Venue address"
                        style={{ flex: 1 }}
                        value={g.address}
                        onChange={(e) => setG({ ...g, address: e.currentTarget.value })}
                      />
                      {geocoder.data?.configured && (
                        <Button
                          variant="default"
                          leftSection={<IconSearch size={14} />}
                          onClick={() => void handleFind()}
                          loading={finding}
                          disabled={!g.address.trim()}
                        >
                          Find
                        </Button>
                      )}
                    </Group>
                    <NumberInput
                      label="Radius (km)"
                      min={0}
                      step={1}
                      allowNegative={false}
                      allowDecimal={false}
                      value={radius}
                      onChange={setRadius}
                    />
                    <SimpleGrid cols={2}>
                      <NumberInput
                        label="Latitude"
                        min={-90}
                        max={90}
                        decimalScale={6}
                        value={g.latitude}
                        onChange={(v) => setG({ ...g, latitude: Number(v) || 0 })}
                      />
                      <NumberInput
                        label="Longitude"
                        min={-180}
                        max={180}
                        decimalScale={6}
                        value={g.longitude}
                        onChange={(v) => setG({ ...g, longitude: Number(v) || 0 })}
                      />
                    </SimpleGrid>
                    {geocoder.data && !geocoder.data.configured && (
                      <Text size="xs" c="dimmed">
                        No geocoding service is configured: enter the venue&apos;s latitude and longitude.
                      </Text>
                    )}
                    <Group justify="flex-end">
                      <Button leftSection={<IconMap size={14} />} variant="light" onClick={handleDraw}>
                        Draw map
                      </Button>
                    </Group>
                  </Stack>
                </Paper>
                <Paper withBorder p="xs" radius="md">
                  {map ? (
                    <Stack gap={4}>
                      <Image src={mapUrl(map)} alt="Geofence map" radius="sm" data-testid="geofence-map" />
                      <Text size="xs" c="dimmed">
                        {map.address} · {map.radius} km
                      </Text>
                    </Stack>
                  ) : (
                    <Text size="sm" c="dimmed" ta="center" py="xl">
                      Enter the address and radius, then Draw map.
                    </Text>
                  )}
                </Paper>
              </SimpleGrid>
              <Paper withBorder radius="md">
                <Group justify="space-between" p="xs">
                  <Title order={5}>Locations</Title>
                  <Button size="xs" leftSection={<IconPlus size={14} />} onClick={() => setAdding(true)}>
                    Add location
                  </Button>
                </Group>
                <Table data-testid="geofence-locations">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Location</Table.Th>
                      <Table.Th>Access</Table.Th>
                      <Table.Th />
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {g.locations.length === 0 && (
                      <Table.Tr>
                        <Table.Td colSpan={3}>
                          <Text size="sm" c="dimmed" ta="center">
                            {MSG.templateParts.noLocations}
                          </Text>
                        </Table.Td>
                      </Table.Tr>
                    )}
                    {g.locations.map((l, i) => (
                      <Table.Tr key={`${l.location}-${i}`}>
                        <Table.Td>{l.location}</Table.Td>
                        <Table.Td>
                          <Badge color={l.allow ? 'green' : 'gray'} variant="light">
                            {l.allow ? 'Allowed' : 'Not allowed'}
                          </Badge>
                        </Table.Td>
                        <Table.Td>
                          <ActionIcon
                            variant="subtle"
                            color="red"
                            aria-label={`Remove ${l.location}`}
                            onClick={() => setG({ ...g, locations: g.locations.filter((_, j) => j !== i) })}
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
          </Accordion.Panel>
        </Accordion.Item>
      </Accordion>
      {adding && (
        <LocationModal
          existing={g.locations}
          onClose={() => setAdding(false)}
          onAdd={(l) => {
            setG({ ...g, locations: [...g.locations, l] });
            setAdding(false);
          }}
        />
      )}
    </TemplatePage>
  );
}

function LocationModal({
  existing,
  onClose,
  onAdd,
}: {
  existing: GeofenceLocation[];
  onClose: () => void;
  onAdd: (l: GeofenceLocation) => void;
}) {
  const [location, setLocation] = useState('');
  const [allow, setAllow] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const handleAdd = () => {
    const name = location.trim();
    if (!name) return setError(MSG.templateParts.fieldRequired);
    if (existing.some((l) => l.location.trim().toLowerCase() === name.toLowerCase()))
      return setError(MSG.templateParts.duplicateValue);
    onAdd({ location: name, allow });
  };
  return (
    <Modal opened onClose={onClose} title="Add location" centered>
      <Stack gap="sm" data-testid="location-modal">
        <TextInput
          label="Location"
          value={location}
          error={error}
          onChange={(e) => {
            setError(null);
            setLocation(e.currentTarget.value);
          }}
          maxLength={200}
        />
        <Checkbox label="Allow access" checked={allow} onChange={(e) => setAllow(e.currentTarget.checked)} />
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
