import { Fragment, useRef, useState } from 'react';
import {
  Alert,
  Button,
  Center,
  Group,
  Loader,
  NumberInput,
  Paper,
  Radio,
  ScrollArea,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconDownload, IconRefresh, IconSend, IconUpload } from '@tabler/icons-react';
import {
  MSG,
  ROVER_MODE_KEY,
  checkConfigValue,
  configCategory,
  configWords,
  rangeStep,
  type CameraConfig,
  type CameraWithConfigs,
} from '@stadiumcam/contract';
import { errorText } from '../../ui/api.ts';
import { showErrorModal, showSuccessModal, toast } from '../../ui/feedback.tsx';
import { getConsoleSocket } from '../../ui/socket.ts';
import { useUnsavedChangesPrompt } from '../../ui/unsaved-changes.ts';
import { useCameraConfigs, useUpdateCameraConfigs } from './camera-configs.hooks.ts';

type Values = Record<string, Record<string, string | number>>;
const CAMERA_SUCCESS_MS = 5000;
const SETTING_WIDTH = 200;
const CAMERA_WIDTH = 180;
/** The first group (spec 3 §2.6), as configCategory names it. */
const GENERAL = configCategory('');

const valuesOf = (cams: CameraWithConfigs[]): Values =>
  Object.fromEntries(
    cams.map((c) => [c.cameraKey, Object.fromEntries(c.configs.map((k) => [k.configKey, k.configValue]))]),
  );

/** 'restart acs' over the console socket; the spec's texts for both outcomes. */
async function restartAcs(camera: string): Promise<void> {
  const answer = await getConsoleSocket()
    .timeout(15_000)
    .emitWithAck('restart acs', { camera })
    .catch(() => ({ ok: false as const, error: 'timeout' }));
  if (answer.ok) toast(MSG.mapping.acsRestarted(camera), { color: 'green' });
  else showErrorModal(MSG.mapping.acsRestartFailed(camera));
}

function Widget({
  config,
  value,
  error,
  onChange,
}: {
  config: CameraConfig;
  value: string | number | undefined;
  error?: string;
  onChange: (v: string | number) => void;
}) {
  const label = config.configKey;
  switch (config.widgetType) {
    case 'RANGE':
      return (
        <NumberInput
          size="xs"
          aria-label={label}
          value={value}
          min={config.bottom}
          max={config.top}
          step={rangeStep(config)}
          error={error}
          onChange={(v) => onChange(typeof v === 'number' ? v : v === '' ? '' : Number(v))}
        />
      );
    case 'MENU':
      return (
        <Select
          size="xs"
          aria-label={label}
          data={config.choices ?? []}
          value={value === undefined ? null : String(value)}
          error={error}
          allowDeselect={false}
          onChange={(v) => v !== null && onChange(v)}
        />
      );
    case 'RADIO':
      return (
        <Radio.Group aria-label={label} value={String(value ?? '')} error={error} onChange={onChange}>
          <Group gap="xs">
            {(config.choices ?? []).map((c) => (
              <Radio key={c} size="xs" value={c} label={c} />
            ))}
          </Group>
        </Radio.Group>
      );
    case 'TEXT':
      return (
        <TextInput
          size="xs"
          aria-label={label}
          value={String(value ?? '')}
          minLength={config.min}
          maxLength={config.max}
          error={error}
          onChange={(e) => onChange(e.currentTarget.value)}
        />
      );
  }
}

/** Camera Configs (spec 3 §2.6): one column per camera, rows grouped by category. */
export function CameraConfigsPage() {
  const cameras = useCameraConfigs();
  const update = useUpdateCameraConfigs();
  // Unsaved edits over the server's values: a refetch (a submit, a host's new report) shows through.
  const [edits, setEdits] = useState<Values>({});
  const [errors, setErrors] = useState<Record<string, Record<string, string>>>({});
  const [busy, setBusy] = useState<string | null>(null);
  const importFor = useRef<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const list = cameras.data ?? [];

  const server = valuesOf(list);
  const values: Values = Object.fromEntries(Object.entries(server).map(([cam, v]) => [cam, { ...v, ...edits[cam] }]));
  // Dirty: a cell that differs from the loaded config (an edit typed back to it is not).
  useUnsavedChangesPrompt(
    Object.entries(edits).some(([cam, v]) =>
      Object.entries(v).some(([k, x]) => String(x) !== String(server[cam]?.[k])),
    ),
  );

  if (cameras.isPending)
    return (
      <Center h="50vh">
        <Group>
          <Loader size="sm" />
          <Text>{MSG.mapping.loadingCameras}</Text>
        </Group>
      </Center>
    );
  if (cameras.isError)
    return (
      <Alert color="red" m="md">
        {MSG.mapping.camerasFetchError} {errorText(cameras.error, cameras.error.message)}
      </Alert>
    );
  if (!list.length)
    return (
      <Center h="50vh">
        <Text c="dimmed">{MSG.mapping.noCamerasAvailable}</Text>
      </Center>
    );

  const keys = [...new Set(list.flatMap((c) => c.configs.map((k) => k.configKey)))];
  const groups = new Map<string, string[]>();
  for (const k of keys) groups.set(configCategory(k), [...(groups.get(configCategory(k)) ?? []), k]);
  const ordered = [...groups].sort(([a], [b]) => (a === GENERAL ? -1 : b === GENERAL ? 1 : a.localeCompare(b)));

  const setValue = (camera: string, key: string, v: string | number) =>
    setEdits((s) => ({ ...s, [camera]: { ...s[camera], [key]: v } }));

  const handleSubmit = (cam: CameraWithConfigs) => {
    const mine = values[cam.cameraKey] ?? {};
    const errs: Record<string, string> = {};
    const configs = cam.configs.map((c) => {
      const r = checkConfigValue(c, mine[c.configKey]);
      if ('error' in r) errs[c.configKey] = r.error;
      return { configKey: c.configKey, configValue: 'value' in r ? r.value : '' };
    });
    setErrors((e) => ({ ...e, [cam.cameraKey]: errs }));
    if (Object.keys(errs).length) return;
    const before = cam.configs.find((c) => c.configKey === ROVER_MODE_KEY)?.configValue;
    const after = configs.find((c) => c.configKey === ROVER_MODE_KEY)?.configValue;
    setBusy(cam.cameraKey);
    update.mutate(
      { camera: cam.cameraKey, _id: cam._id, configs },
      {
        onSuccess: () => {
          setEdits(({ [cam.cameraKey]: _saved, ...rest }) => rest);
          showSuccessModal(MSG.mapping.cameraUpdated(cam.cameraKey), { ms: CAMERA_SUCCESS_MS });
          // spec 3 §4: a changed rover mode needs the ACS restarted.
          if (before !== undefined && before !== after) void restartAcs(cam.cameraKey);
        },
        onError: () => showErrorModal(MSG.mapping.cameraUpdateFailed(cam.cameraKey)),
        onSettled: () => setBusy(null),
      },
    );
  };

  const handleRestart = async (camera: string) => {
    setBusy(`restart:${camera}`);
    await restartAcs(camera);
    setBusy(null);
  };

  const handleExport = (cam: CameraWithConfigs) => {
    const mine = values[cam.cameraKey] ?? {};
    const configs = cam.configs.map((c) => ({ ...c, configValue: mine[c.configKey] ?? c.configValue }));
    const url = URL.createObjectURL(new Blob([JSON.stringify(configs, null, 2)], { type: 'application/json' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = `${cam.cameraKey}-config.json`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };

  const handleImport = async (file: File) => {
    const camera = importFor.current;
    if (!camera) return;
    if (!file.name.toLowerCase().endsWith('.json') && file.type !== 'application/json') {
      showErrorModal(MSG.mapping.invalidConfigFileType);
      return;
    }
    let json: unknown;
    try {
      json = JSON.parse(await file.text());
    } catch {
      showErrorModal(MSG.mapping.invalidJson);
      return;
    }
    const items = Array.isArray(json) ? json : (json as { configs?: unknown })?.configs;
    if (!Array.isArray(items)) {
      showErrorModal(MSG.mapping.invalidJson);
      return;
    }
    const known = new Set(list.find((c) => c.cameraKey === camera)?.configs.map((c) => c.configKey));
    for (const it of items as { configKey?: unknown; configValue?: unknown }[]) {
      if (
        typeof it?.configKey === 'string' &&
        known.has(it.configKey) &&
        ['string', 'number'].includes(typeof it.configValue)
      )
        setValue(camera, it.configKey, it.configValue as string | number);
    }
    toast(MSG.mapping.configsImported(camera), { color: 'green' });
  };

  return (
    <Stack p="md" gap="md">
      <Title order={3}>Camera Configs</Title>
      <input
        ref={fileInput}
        type="file"
        accept=".json,application/json"
        hidden
        data-testid="config-import-input"
        onChange={(e) => {
          const f = e.currentTarget.files?.[0];
          e.currentTarget.value = '';
          if (f) void handleImport(f);
        }}
      />
      <Paper withBorder>
        <ScrollArea type="auto" offsetScrollbars>
          {/* Four cameras fit at 1280 px; more scroll sideways inside the frame. */}
          <Table striped withColumnBorders verticalSpacing={6} miw={SETTING_WIDTH + list.length * CAMERA_WIDTH}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={SETTING_WIDTH}>Setting</Table.Th>
                {list.map((c) => (
                  <Table.Th key={c.cameraKey} miw={CAMERA_WIDTH}>
                    {c.cameraKey}
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              <Table.Tr>
                <Table.Td fw={600}>Device</Table.Td>
                {list.map((c) => (
                  <Table.Td key={c.cameraKey} data-testid={`device-${c.cameraKey}`}>
                    {c.host ? (
                      <Stack gap={0}>
                        <Text size="xs">{c.host.name}</Text>
                        <Text size="xs" c="dimmed">
                          {c.host.ip} · v{c.host.version}
                          {c.host.platform ? ` · ${c.host.platform}` : ''}
                        </Text>
                      </Stack>
                    ) : (
                      <Text size="xs" c="dimmed">
                        {MSG.mapping.noHostInfo}
                      </Text>
                    )}
                  </Table.Td>
                ))}
              </Table.Tr>
              {ordered.map(([group, groupKeys]) => (
                <Fragment key={group}>
                  <Table.Tr>
                    <Table.Td colSpan={list.length + 1} bg="var(--mantine-color-default-hover)">
                      <Text size="sm" fw={700}>
                        {group === GENERAL ? group : configWords(group, true)}
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                  {groupKeys.map((key) => (
                    <Table.Tr key={key}>
                      {/* In words, with the host's key under it (its documentation names the key). */}
                      <Table.Td>
                        <Text size="sm">{configWords(key)}</Text>
                        <Text size="xs" c="dimmed" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                          {key}
                        </Text>
                      </Table.Td>
                      {list.map((c) => {
                        const config = c.configs.find((k) => k.configKey === key);
                        return (
                          <Table.Td key={c.cameraKey} data-testid={`cfg-${c.cameraKey}-${key}`}>
                            {config ? (
                              <Widget
                                config={config}
                                value={values[c.cameraKey]?.[key]}
                                error={errors[c.cameraKey]?.[key]}
                                onChange={(v) => setValue(c.cameraKey, key, v)}
                              />
                            ) : (
                              <Text size="xs" c="dimmed">
                                —
                              </Text>
                            )}
                          </Table.Td>
                        );
                      })}
                    </Table.Tr>
                  ))}
                </Fragment>
              ))}
              <Table.Tr>
                <Table.Td />
                {list.map((c) => (
                  <Table.Td key={c.cameraKey}>
                    <Group gap={6}>
                      <Button
                        size="compact-xs"
                        variant="default"
                        leftSection={<IconRefresh size={14} />}
                        loading={busy === `restart:${c.cameraKey}`}
                        onClick={() => void handleRestart(c.cameraKey)}
                        data-testid={`restart-${c.cameraKey}`}
                      >
                        Restart ACS
                      </Button>
                      <Button
                        size="compact-xs"
                        leftSection={<IconSend size={14} />}
                        loading={busy === c.cameraKey}
                        onClick={() => handleSubmit(c)}
                        data-testid={`submit-${c.cameraKey}`}
                      >
                        Submit
                      </Button>
                      <Button
                        size="compact-xs"
                        variant="default"
                        leftSection={<IconUpload size={14} />}
                        data-testid={`import-${c.cameraKey}`}
                        onClick={() => {
                          importFor.current = c.cameraKey;
                          fileInput.current?.click();
                        }}
                      >
                        Import
                      </Button>
                      <Button
                        size="compact-xs"
                        variant="default"
                        leftSection={<IconDownload size={14} />}
                        onClick={() => handleExport(c)}
                        data-testid={`export-${c.cameraKey}`}
                      >
                        Export
                      </Button>
                    </Group>
                  </Table.Td>
                ))}
              </Table.Tr>
            </Table.Tbody>
          </Table>
        </ScrollArea>
      </Paper>
    </Stack>
  );
}
