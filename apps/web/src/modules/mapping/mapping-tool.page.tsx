import { useCallback, useEffect, useRef, useState } from 'react';
import {
  ActionIcon,
  Button,
  Grid,
  Group,
  Image,
  Modal,
  Paper,
  Select,
  SimpleGrid,
  Slider,
  Stack,
  Switch,
  Table,
  Tabs,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import {
  IconArrowDown,
  IconArrowLeft,
  IconArrowRight,
  IconArrowUp,
  IconCamera,
  IconHome,
  IconPlugConnected,
  IconPlugConnectedX,
} from '@tabler/icons-react';
import {
  MSG,
  REGION_TYPES,
  attendeeRoutes,
  formatPtzCommand,
  overlayLabel,
  parsePosition,
  parsePtzCommand,
} from '@stadiumcam/contract';
import { useQuery } from '@tanstack/react-query';
import { api, errorText } from '../../ui/api.ts';
import { confirm } from '../../ui/feedback.tsx';
import { getConsoleSocket, useSocketEvent } from '../../ui/socket.ts';
import { useUnsavedChangesPrompt } from '../../ui/unsaved-changes.ts';
import { CameraStream } from '../monitor/camera-stream.tsx';
import { useCameraConfigs } from '../cameras/camera-configs.hooks.ts';
import { useConfigFiles, useRegionMutations, useSeatMap } from './mapping.hooks.ts';
import {
  CORNERS,
  CROSS_CHECK,
  checkRegion,
  emptyRegionForm,
  formOf,
  isCornerDisabled,
  linkCorners,
  withRegionType,
  type CornerKey,
  type RegionForm,
} from './region-form.ts';

/* spec 3 §5 slider limits and §9 timings. */
const PT_MAX = 1e9;
const PT_STEP = PT_MAX / 500;
const ZOOM_MAX = 1000;
const ZOOM_STEP = ZOOM_MAX / 200;
/**
 * A raw position as a share of the camera's travel, beside the raw count (issue 28 point 5):
 * PTU counts have no fixed number of degrees across camera models, a percentage reads the same
 * on each. Pan and tilt are signed (±100 % either way of the centre), zoom 0–100 %.
 */
export const travel = (value: number, max: number) => {
  const pct = (value / max) * 100;
  return `${pct > 0 && max === PT_MAX ? '+' : ''}${pct.toFixed(Math.abs(pct) < 10 && pct !== 0 ? 1 : 0)} %`;
};
const FEEDBACK_MS = 1000;
const TRACK_AFTER_MS = 750;
const CROSS_CHECK_MS = 1000;

type Flash = Record<string, 'green' | 'red'>;

/** Buttons flash success or danger for 1 s (spec 3 §4). */
function useFlash(): [Flash, (id: string, ok: boolean) => void] {
  const [flash, setFlash] = useState<Flash>({});
  const fire = useCallback((id: string, ok: boolean) => {
    setFlash((f) => ({ ...f, [id]: ok ? 'green' : 'red' }));
    setTimeout(
      () =>
        setFlash((f) => {
          const { [id]: _gone, ...rest } = f;
          return rest;
        }),
      FEEDBACK_MS,
    );
  }, []);
  return [flash, fire];
}

function CornerTable({
  form,
  onChange,
  onRead,
  onSend,
  flash,
}: {
  form: RegionForm;
  onChange: (f: RegionForm) => void;
  onRead: (k: CornerKey) => void;
  onSend: (k: CornerKey) => void;
  flash: Flash;
}) {
  const set = (k: CornerKey, field: 'row' | 'seat' | 'pan' | 'tilt', v: string) =>
    onChange(
      linkCorners({
        ...form,
        corners: { ...form.corners, [k]: { ...form.corners[k], [field]: field === 'row' ? v.toUpperCase() : v } },
      }),
    );
  return (
    <Table withTableBorder verticalSpacing={4} horizontalSpacing={4} fz="sm">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Corner</Table.Th>
          <Table.Th>Row</Table.Th>
          <Table.Th>Seat</Table.Th>
          <Table.Th>Pan</Table.Th>
          <Table.Th>Tilt</Table.Th>
          <Table.Th />
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {CORNERS.map(({ key, label }) => {
          const disabled = isCornerDisabled(form.regionType, key);
          const v = form.corners[key];
          return (
            <Table.Tr key={key} data-testid={`corner-${key}`}>
              <Table.Td fz="xs" style={{ whiteSpace: 'nowrap' }}>
                {label}
              </Table.Td>
              {(['row', 'seat', 'pan', 'tilt'] as const).map((field) => (
                <Table.Td key={field}>
                  {/* Wide enough for a whole PTU count (-1000000000), not cut in its box. */}
                  <TextInput
                    size="xs"
                    w={field === 'pan' || field === 'tilt' ? 96 : 48}
                    aria-label={`${label} ${field}`}
                    value={v[field]}
                    disabled={disabled}
                    onChange={(e) => set(key, field, e.currentTarget.value)}
                  />
                </Table.Td>
              ))}
              <Table.Td>
                <Group gap={4} wrap="nowrap">
                  <Button
                    size="compact-xs"
                    variant={flash[`read-${key}`] ? 'filled' : 'default'}
                    color={flash[`read-${key}`]}
                    disabled={disabled}
                    onClick={() => onRead(key)}
                  >
                    Read
                  </Button>
                  <Button
                    size="compact-xs"
                    variant={flash[`send-${key}`] ? 'filled' : 'default'}
                    color={flash[`send-${key}`]}
                    onClick={() => onSend(key)}
                  >
                    Send
                  </Button>
                </Group>
              </Table.Td>
            </Table.Tr>
          );
        })}
      </Table.Tbody>
    </Table>
  );
}

function RegionFields({ form, onChange }: { form: RegionForm; onChange: (f: RegionForm) => void }) {
  return (
    <SimpleGrid cols={3} spacing="xs" verticalSpacing={4}>
      <TextInput label="Type" value={form.type} onChange={(e) => onChange({ ...form, type: e.currentTarget.value })} />
      <TextInput label="Name" value={form.name} onChange={(e) => onChange({ ...form, name: e.currentTarget.value })} />
      <Select
        label="Region type"
        data={[...REGION_TYPES]}
        value={form.regionType}
        allowDeselect={false}
        onChange={(v) => v && onChange(withRegionType(form, v))}
      />
      <TextInput
        label="Angle"
        value={form.angle}
        onChange={(e) => onChange({ ...form, angle: e.currentTarget.value })}
      />
      <TextInput
        label="Zoom factor"
        value={form.zoomFactor}
        onChange={(e) => onChange({ ...form, zoomFactor: e.currentTarget.value })}
      />
    </SimpleGrid>
  );
}

/** The mapping tool (spec 3 §2.8): live preview, moves, regions (Map, Check) and the reference (Browse). */
export function MappingToolPage() {
  const socket = getConsoleSocket();
  const cameras = useCameraConfigs();
  const seatMap = useSeatMap();
  // Only an image the server lists is asked for: a missing one was a 404 in every console.
  const files = useConfigFiles();
  const mutations = useRegionMutations();
  const overlays = useQuery({
    queryKey: ['mapping', 'overlays'],
    queryFn: () => api(attendeeRoutes.event, { query: {} }),
  });
  const [camera, setCamera] = useState('cam1');
  const [connected, setConnected] = useState<string | null>(null);
  const [pos, setPos] = useState({ pan: 0, tilt: 0, zoom: 0 });
  const [angle, setAngle] = useState(0);
  const [stepSize, setStepSize] = useState(1e7);
  const [speed, setSpeed] = useState(2);
  const [track, setTrack] = useState(true);
  const [overlay, setOverlay] = useState<string | null>(null);
  const [shot, setShot] = useState<string | null>(null);
  const [mapForm, setMapForm] = useState<RegionForm>(emptyRegionForm);
  const [checkKey, setCheckKey] = useState<string | null>(null);
  const [checkForm, setCheckForm] = useState<RegionForm | null>(null);
  const [checkOriginal, setCheckOriginal] = useState<RegionForm | null>(null);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [tab, setTab] = useState<string | null>('map');
  const [crossChecking, setCrossChecking] = useState(false);
  const [flash, fire] = useFlash();
  const held = useRef<string | null>(null);

  const mapCam = seatMap.data?.cameras.find((c) => c.camera === camera);
  const ref = mapCam?.refPoint ?? null;
  const refImage = files.data?.files.find((f) => f.name === `shots/${camera}.jpg`);
  const regions = (mapCam?.sections ?? []).flatMap((s) =>
    s.regions.map((r) => ({
      key: `${s.type}|${s.name}|${r.index}`,
      label: `${s.type} ${s.name} #${r.index + 1}`,
      s,
      r,
    })),
  );
  const dirty = checkForm !== null && JSON.stringify(checkForm) !== JSON.stringify(checkOriginal);
  // Leaving with a region half-typed on Map or unsaved changes on Check asks first.
  useUnsavedChangesPrompt(dirty || JSON.stringify(mapForm) !== JSON.stringify(emptyRegionForm()));

  const requestPosition = useCallback(
    (cam: string) => void socket.emitWithAck('rover get position', { target: 'host', camera: cam }).catch(() => {}),
    [socket],
  );

  useSocketEvent('position', (p) => {
    if (p.camera !== camera || !('data' in p)) return;
    const parsed = parsePosition(p.data);
    if (parsed) setPos({ pan: parsed.pan, tilt: parsed.tilt, zoom: Math.round(parsed.zoom * ZOOM_MAX) });
  });

  /** Sends a move; refused (not sent) without a connected camera or with bad values (spec 3 §5). */
  const move = useCallback(
    async (command: string): Promise<boolean> => {
      if (!connected) {
        console.warn(MSG.mapping.noCameraConnected);
        return false;
      }
      const parsed = parsePtzCommand(command);
      if ('error' in parsed) {
        setMessage({ ok: false, text: parsed.error });
        return false;
      }
      const answer = await socket
        .timeout(12_000)
        .emitWithAck('rover move', { target: 'host', camera: connected, command: formatPtzCommand(parsed) })
        .catch(() => ({ ok: false as const, error: 'The server did not answer' }));
      if (!answer.ok) {
        setMessage({ ok: false, text: answer.error });
        return false;
      }
      // The camera did what was asked: an earlier refusal no longer applies.
      setMessage(null);
      const p = parsePosition(answer.answer);
      if (p) setPos({ pan: p.pan, tilt: p.tilt, zoom: Math.round(p.zoom * ZOOM_MAX) });
      return true;
    },
    [connected, socket],
  );

  const absolute = (pan: number, tilt: number, zoom: number) => move(`!${pan},${tilt},${zoom / ZOOM_MAX}`);

  const handleConnect = async () => {
    if (connected) {
      await socket.emitWithAck('leave livestream', { room: 'map', camera: connected });
      setConnected(null);
      return;
    }
    const answer = await socket.emitWithAck('join monitor livestream', { room: 'map', camera });
    if (!answer.ok) {
      setMessage({ ok: false, text: answer.error });
      return;
    }
    setConnected(camera);
    requestPosition(camera);
  };

  useEffect(() => {
    return () => {
      if (connected) void socket.emitWithAck('leave livestream', { room: 'map', camera: connected });
    };
  }, [connected, socket]);

  // WASD: continuous moves while held, ignored while typing; stop on release, then the position.
  useEffect(() => {
    const dirs: Record<string, [number, number]> = { w: [0, 1], s: [0, -1], a: [-1, 0], d: [1, 0] };
    const typing = () => {
      const el = document.activeElement;
      return el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement;
    };
    const down = (e: KeyboardEvent) => {
      const dir = dirs[e.key.toLowerCase()];
      if (!dir || e.repeat || typing() || held.current) return;
      held.current = e.key.toLowerCase();
      const f = speed / 100;
      void move(`c${dir[0] * f},${dir[1] * f}`);
    };
    const up = (e: KeyboardEvent) => {
      if (held.current !== e.key.toLowerCase()) return;
      held.current = null;
      void move('s').then(() => {
        if (track && connected) setTimeout(() => requestPosition(connected), TRACK_AFTER_MS);
      });
    };
    // A key released in another window never comes back as keyup: stop when the page loses focus.
    const blur = () => {
      if (held.current) up(new KeyboardEvent('keyup', { key: held.current }));
    };
    window.addEventListener('keydown', down);
    window.addEventListener('keyup', up);
    window.addEventListener('blur', blur);
    return () => {
      window.removeEventListener('keydown', down);
      window.removeEventListener('keyup', up);
      window.removeEventListener('blur', blur);
    };
  }, [move, speed, track, connected, requestPosition]);

  const handleShot = async () => {
    if (!connected) return console.warn(MSG.mapping.noCameraConnected);
    const cam = connected;
    let listener: ((p: { camera: string; image: ArrayBuffer | Uint8Array }) => void) | undefined;
    const image = new Promise<ArrayBuffer | Uint8Array>((resolve) => {
      listener = (p) => p.camera === cam && resolve(p.image);
      socket.on('shot image', listener);
    });
    const answer = await socket
      .timeout(15_000)
      .emitWithAck('take shot', { camera: cam })
      .catch(() => ({ ok: false as const, error: 'The server did not answer' }));
    fire('shot', answer.ok);
    if (answer.ok) setShot(URL.createObjectURL(new Blob([(await image) as BlobPart], { type: 'image/jpeg' })));
    else setMessage({ ok: false, text: answer.error });
    socket.off('shot image', listener);
  };

  /**
   * Read asks the camera where it is now and fills the corner with the offset from the reference
   * (stored corners are relative, spec 3 §3); it needs a connected camera, like every move.
   */
  const readCorner =
    (update: (change: (f: RegionForm) => RegionForm) => void) =>
    async (k: CornerKey): Promise<void> => {
      if (!connected) {
        console.warn(MSG.mapping.noCameraConnected);
        return fire(`read-${k}`, false);
      }
      const answer = await socket
        .timeout(12_000)
        .emitWithAck('rover get position', { target: 'host', camera: connected })
        .catch(() => ({ ok: false as const, error: 'The server did not answer' }));
      const p = answer.ok ? parsePosition(answer.position) : null;
      if (!p) {
        setMessage({ ok: false, text: answer.ok ? answer.position : answer.error });
        return fire(`read-${k}`, false);
      }
      setPos({ pan: p.pan, tilt: p.tilt, zoom: Math.round(p.zoom * ZOOM_MAX) });
      update((f) =>
        linkCorners({
          ...f,
          corners: {
            ...f.corners,
            [k]: { ...f.corners[k], pan: String(p.pan - (ref?.pan ?? 0)), tilt: String(p.tilt - (ref?.tilt ?? 0)) },
          },
        }),
      );
      fire(`read-${k}`, true);
    };
  const updateMap = (change: (f: RegionForm) => RegionForm) => setMapForm(change);
  const updateCheck = (change: (f: RegionForm) => RegionForm) => setCheckForm((f) => f && change(f));

  /**
   * Sending a corner adds the reference back (spec 3 §4), at the region's zoom factor. An empty or
   * non-integer pan or tilt is not sent (spec 3 §5); the reason shows and the button turns red.
   */
  const sendCorner = (form: RegionForm) => async (k: CornerKey) => {
    const c = linkCorners(form).corners[k];
    if (c.pan.trim() === '' || c.tilt.trim() === '') {
      setMessage({ ok: false, text: 'Fill in the pan and tilt of the corner first' });
      return fire(`send-${k}`, false);
    }
    const zoom = Number(form.zoomFactor);
    const ok = await absolute(
      Number(c.pan) + (ref?.pan ?? 0),
      Number(c.tilt) + (ref?.tilt ?? 0),
      form.zoomFactor.trim() !== '' && Number.isFinite(zoom) ? Math.round(zoom * ZOOM_MAX) : pos.zoom,
    );
    fire(`send-${k}`, ok);
  };

  const handleSaveMap = async () => {
    const checked = checkRegion(mapForm);
    if ('error' in checked) {
      setMessage({ ok: false, text: checked.error });
      return fire('save-map', false);
    }
    try {
      await mutations.add.mutateAsync({ camera, region: checked.region });
      fire('save-map', true);
      setMessage({ ok: true, text: 'Region saved' });
      setMapForm(emptyRegionForm());
    } catch (err) {
      fire('save-map', false);
      setMessage({ ok: false, text: errorText(err, 'The region could not be saved') });
    }
  };

  const selected = regions.find((r) => r.key === checkKey);
  const selectRegion = (key: string | null) => {
    setCheckKey(key);
    const r = regions.find((x) => x.key === key);
    const f = r ? formOf(r.s, r.r) : null;
    setCheckForm(f);
    setCheckOriginal(f);
    if (r) setAngle(r.r.angle);
  };
  // Another camera's regions: the Check selection belongs to the camera it was made on.
  const [checkCamera, setCheckCamera] = useState(camera);
  if (checkCamera !== camera) {
    setCheckCamera(camera);
    setCheckKey(null);
    setCheckForm(null);
    setCheckOriginal(null);
  }
  // spec 3 §8: an empty region list logs a warning and clears the corner fields.
  const noRegions = tab === 'check' && seatMap.isSuccess && regions.length === 0;
  useEffect(() => {
    if (noRegions) console.warn(`No saved regions for ${camera}`);
  }, [noRegions, camera]);
  if (noRegions && checkForm) {
    setCheckKey(null);
    setCheckForm(null);
    setCheckOriginal(null);
  }
  const refOf = () => ({ camera, type: selected!.s.type, section: selected!.s.name, index: selected!.r.index });
  const handleSaveCheck = async () => {
    if (!selected || !checkForm) return;
    const checked = checkRegion(checkForm);
    if ('error' in checked) {
      setMessage({ ok: false, text: checked.error });
      return fire('save-check', false);
    }
    try {
      await mutations.update.mutateAsync({ ref: refOf(), region: checked.region });
      fire('save-check', true);
      setCheckOriginal(checkForm);
      setCheckKey(`${checked.region.type}|${checked.region.name}|${selected.r.index}`);
    } catch (err) {
      fire('save-check', false);
      setMessage({ ok: false, text: errorText(err, 'The region could not be saved') });
    }
  };
  const handleDeleteCheck = async () => {
    if (!selected) return;
    const sure = await confirm({
      title: MSG.mapping.deleteRegionTitle,
      text: MSG.mapping.deleteRegionConfirm(selected.label, camera),
      confirmLabel: MSG.common.deleteLabel,
      danger: true,
    });
    if (!sure) return;
    try {
      await mutations.remove.mutateAsync(refOf());
      fire('delete-check', true);
      selectRegion(null);
    } catch {
      fire('delete-check', false);
    }
  };
  /** One corner a second in the spec's order (spec 3 §4, §9). */
  const handleCrossCheck = async () => {
    if (!checkForm) return;
    setCrossChecking(true);
    try {
      for (const [i, k] of CROSS_CHECK.entries()) {
        if (i) await new Promise((r) => setTimeout(r, CROSS_CHECK_MS));
        await sendCorner(checkForm)(k);
      }
    } finally {
      setCrossChecking(false);
    }
  };

  const handleSetReference = async () => {
    if (!connected) return console.warn(MSG.mapping.noCameraConnected);
    if (!(await confirm({ title: MSG.mapping.referencePtzTitle, text: MSG.mapping.setReferencePtzConfirm }))) return;
    try {
      await mutations.reference.mutateAsync({ camera, pan: pos.pan, tilt: pos.tilt, zoom: pos.zoom / ZOOM_MAX });
      fire('ref', true);
    } catch (err) {
      fire('ref', false);
      setMessage({ ok: false, text: errorText(err, 'The reference could not be set') });
    }
  };
  const handleSetImage = async () => {
    if (!connected) return console.warn(MSG.mapping.noCameraConnected);
    if (!(await confirm({ title: MSG.mapping.referenceImageTitle, text: MSG.mapping.setReferenceImageConfirm })))
      return;
    try {
      await mutations.referenceImage.mutateAsync(camera);
      fire('ref-image', true);
    } catch (err) {
      fire('ref-image', false);
      setMessage({ ok: false, text: errorText(err, 'The reference image could not be set') });
    }
  };

  /** The angle slider turns the preview and sets the angle of the region being edited. */
  const handleAngle = (v: number) => {
    setAngle(v);
    if (tab === 'map') setMapForm((f) => ({ ...f, angle: String(v) }));
    if (tab === 'check') updateCheck((f) => ({ ...f, angle: String(v) }));
  };

  const camList = (cameras.data ?? []).map((c) => c.cameraKey);
  const overlayOptions = (overlays.data?.overlays ?? []).map((o) => ({
    value: o.urlFullSize,
    label: overlayLabel(o.storageKey),
  }));
  const btn = (id: string) => ({ color: flash[id], variant: flash[id] ? ('filled' as const) : undefined });

  return (
    <Stack p="md" gap="sm">
      <Group justify="space-between">
        <Title order={3}>Mapping</Title>
        <Group gap="xs">
          <Select
            aria-label="Camera"
            data={camList.length ? camList : ['cam1']}
            value={camera}
            disabled={!!connected}
            allowDeselect={false}
            onChange={(v) => v && setCamera(v)}
            w={120}
          />
          <Button
            leftSection={connected ? <IconPlugConnectedX size={16} /> : <IconPlugConnected size={16} />}
            color={connected ? 'red' : undefined}
            onClick={() => void handleConnect()}
          >
            {connected ? 'Disconnect' : 'Connect'}
          </Button>
        </Group>
      </Group>
      {message && (
        <Text size="sm" c={message.ok ? 'green' : 'red'} data-testid="tool-message">
          {message.text}
        </Text>
      )}
      <Grid>
        <Grid.Col span={{ base: 12, lg: 5 }}>
          <Stack gap="xs">
            <div style={{ position: 'relative', overflow: 'hidden' }}>
              <div style={{ transform: angle ? `rotate(${angle}deg)` : undefined }} data-testid="tool-preview">
                <CameraStream camera={camera} on={connected === camera} offLabel={MSG.mapping.notConnected} />
              </div>
              {overlay && (
                <img
                  src={overlay}
                  alt="overlay"
                  style={{
                    position: 'absolute',
                    inset: 0,
                    width: '100%',
                    height: '100%',
                    objectFit: 'contain',
                    opacity: 0.6,
                    pointerEvents: 'none',
                  }}
                />
              )}
            </div>
            <Text size="sm" data-testid="tool-position">
              Pan {pos.pan} ({travel(pos.pan, PT_MAX)}) · Tilt {pos.tilt} ({travel(pos.tilt, PT_MAX)}) · Zoom {pos.zoom}{' '}
              ({travel(pos.zoom, ZOOM_MAX)})
            </Text>
            <Paper withBorder p="xs">
              <Stack gap={10}>
                {(
                  [
                    [
                      'Pan',
                      pos.pan,
                      -PT_MAX,
                      PT_MAX,
                      PT_STEP,
                      (v: number) => void absolute(v, pos.tilt, pos.zoom),
                      (v: number) => setPos({ ...pos, pan: v }),
                    ],
                    [
                      'Tilt',
                      pos.tilt,
                      -PT_MAX,
                      PT_MAX,
                      PT_STEP,
                      (v: number) => void absolute(pos.pan, v, pos.zoom),
                      (v: number) => setPos({ ...pos, tilt: v }),
                    ],
                    [
                      'Zoom',
                      pos.zoom,
                      0,
                      ZOOM_MAX,
                      ZOOM_STEP,
                      (v: number) => void absolute(pos.pan, pos.tilt, v),
                      (v: number) => setPos({ ...pos, zoom: v }),
                    ],
                  ] as const
                ).map(([label, value, min, max, step, commit, change]) => (
                  <Group key={label} gap="xs" wrap="nowrap">
                    <Text size="xs" w={70}>
                      {label}
                    </Text>
                    <Slider
                      flex={1}
                      aria-label={label}
                      thumbLabel={label}
                      thumbSize={24}
                      min={min}
                      max={max}
                      step={step}
                      value={value}
                      onChange={change}
                      onChangeEnd={commit}
                      label={null}
                    />
                  </Group>
                ))}
                <Group gap="xs" wrap="nowrap">
                  <Text size="xs" w={70}>
                    Angle
                  </Text>
                  <Slider
                    flex={1}
                    aria-label="Angle"
                    thumbLabel="Angle"
                    thumbSize={24}
                    min={-30}
                    max={30}
                    step={0.5}
                    value={angle}
                    onChange={handleAngle}
                  />
                </Group>
                <Group gap="xs" wrap="nowrap">
                  <Text size="xs" w={70}>
                    Step size
                  </Text>
                  <Slider
                    flex={1}
                    aria-label="Step size"
                    thumbLabel="Step size"
                    thumbSize={24}
                    min={1e6}
                    max={1e8}
                    step={1e6}
                    value={stepSize}
                    onChange={setStepSize}
                  />
                </Group>
                <Group gap="xs" wrap="nowrap">
                  <Text size="xs" w={70}>
                    Speed
                  </Text>
                  <Slider
                    flex={1}
                    aria-label="Continuous speed"
                    thumbLabel="Continuous speed"
                    thumbSize={24}
                    min={1}
                    max={100}
                    value={speed}
                    onChange={setSpeed}
                  />
                </Group>
              </Stack>
            </Paper>
            <Group gap="xs">
              <ActionIcon variant="default" aria-label="Left" onClick={() => void move(`r${-stepSize},0,0`)}>
                <IconArrowLeft size={16} />
              </ActionIcon>
              <ActionIcon variant="default" aria-label="Up" onClick={() => void move(`r0,${stepSize},0`)}>
                <IconArrowUp size={16} />
              </ActionIcon>
              <ActionIcon variant="default" aria-label="Down" onClick={() => void move(`r0,${-stepSize},0`)}>
                <IconArrowDown size={16} />
              </ActionIcon>
              <ActionIcon variant="default" aria-label="Right" onClick={() => void move(`r${stepSize},0,0`)}>
                <IconArrowRight size={16} />
              </ActionIcon>
              <Button
                size="xs"
                variant="default"
                leftSection={<IconHome size={14} />}
                onClick={() => void move('!0,0,0')}
              >
                Home
              </Button>
              <Button
                size="xs"
                {...btn('shot')}
                leftSection={<IconCamera size={14} />}
                onClick={() => void handleShot()}
              >
                Snapshot
              </Button>
              <Switch
                size="xs"
                label="Track on Move"
                checked={track}
                onChange={(e) => setTrack(e.currentTarget.checked)}
              />
              <Select
                size="xs"
                placeholder="Overlay"
                aria-label="Overlay"
                clearable
                data={overlayOptions}
                value={overlay}
                onChange={setOverlay}
                w={150}
              />
            </Group>
            <Text size="xs" c="dimmed">
              W/A/S/D move the camera while held.
            </Text>
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 7 }}>
          <Tabs value={tab} onChange={setTab}>
            <Tabs.List>
              <Tabs.Tab value="map">Map</Tabs.Tab>
              <Tabs.Tab value="check">Check</Tabs.Tab>
              <Tabs.Tab value="browse">Browse</Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="map" pt="sm">
              <Stack gap="xs">
                <RegionFields form={mapForm} onChange={setMapForm} />
                <CornerTable
                  form={mapForm}
                  onChange={setMapForm}
                  onRead={(k) => void readCorner(updateMap)(k)}
                  onSend={(k) => void sendCorner(mapForm)(k)}
                  flash={flash}
                />
                <Group>
                  <Button {...btn('save-map')} loading={mutations.add.isPending} onClick={() => void handleSaveMap()}>
                    Save
                  </Button>
                </Group>
              </Stack>
            </Tabs.Panel>
            <Tabs.Panel value="check" pt="sm">
              <Stack gap="xs">
                <Select
                  label="Saved region"
                  placeholder={regions.length ? 'Choose a region' : 'No regions for this camera'}
                  data={regions.map((r) => ({ value: r.key, label: r.label }))}
                  value={checkKey}
                  disabled={dirty}
                  onChange={selectRegion}
                  searchable
                />
                {checkForm && (
                  <>
                    <RegionFields form={checkForm} onChange={setCheckForm} />
                    <CornerTable
                      form={checkForm}
                      onChange={setCheckForm}
                      onRead={(k) => void readCorner(updateCheck)(k)}
                      onSend={(k) => void sendCorner(checkForm)(k)}
                      flash={flash}
                    />
                    <Group>
                      <Button
                        {...btn('save-check')}
                        loading={mutations.update.isPending}
                        onClick={() => void handleSaveCheck()}
                      >
                        Save
                      </Button>
                      <Button variant="default" disabled={!dirty} onClick={() => setCheckForm(checkOriginal)}>
                        Discard
                      </Button>
                      <Button variant="default" loading={crossChecking} onClick={() => void handleCrossCheck()}>
                        Cross check
                      </Button>
                      <Button
                        color={flash['delete-check'] ?? 'red'}
                        // Light red at rest: a flash (spec 3 §4, §8) shows as filled.
                        variant={flash['delete-check'] ? 'filled' : 'light'}
                        loading={mutations.remove.isPending}
                        onClick={() => void handleDeleteCheck()}
                      >
                        Delete
                      </Button>
                    </Group>
                  </>
                )}
              </Stack>
            </Tabs.Panel>
            <Tabs.Panel value="browse" pt="sm">
              <Stack gap="xs">
                <Text size="sm" data-testid="reference">
                  Reference:{' '}
                  {ref
                    ? `pan ${ref.pan} (${travel(ref.pan, PT_MAX)}), tilt ${ref.tilt} (${travel(ref.tilt, PT_MAX)}), zoom ${ref.zoom} (${travel(ref.zoom, ZOOM_MAX)})`
                    : 'not set'}
                </Text>
                <Group>
                  <Button
                    {...btn('ref')}
                    // spec 3 §5: both need a connected camera.
                    disabled={!connected}
                    loading={mutations.reference.isPending}
                    onClick={() => void handleSetReference()}
                  >
                    Set reference PTZ
                  </Button>
                  <Button
                    {...btn('ref-image')}
                    disabled={!connected}
                    loading={mutations.referenceImage.isPending}
                    onClick={() => void handleSetImage()}
                  >
                    Set reference image
                  </Button>
                </Group>
                {refImage ? (
                  <Image
                    // Its upload time: a new image of the same camera is fetched again, an old one is cached.
                    src={`/api/config/stadiumcam/shots/${camera}.jpg?t=${encodeURIComponent(refImage.uploadedAt)}`}
                    alt={`Reference image of ${camera}`}
                    radius="sm"
                    maw={640}
                  />
                ) : (
                  <Text size="sm" c="dimmed" data-testid="no-reference-image">
                    {MSG.mapping.noReferenceImage}
                  </Text>
                )}
              </Stack>
            </Tabs.Panel>
          </Tabs>
        </Grid.Col>
      </Grid>
      <Modal opened={!!shot} onClose={() => setShot(null)} title="Snapshot" size="xl">
        {shot && <Image src={shot} alt="Snapshot" />}
      </Modal>
    </Stack>
  );
}
