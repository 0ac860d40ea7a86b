import { useEffect, useState } from 'react';
import { Divider, Group, Loader, Stack, Switch, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { MSG, P, type CameraStatus } from '@stadiumcam/contract';
import { showErrorModal } from '../../ui/feedback.tsx';
import { useCan } from '../auth/session.hooks.ts';
import {
  CAMERA_STATUS_KEY,
  getDemoMode,
  setDemoMode,
  summarise,
  useCameraStatus,
  usePowerCommand,
} from './cameras.hooks.ts';

/** One power switch with its spinner (also used by the monitor's tiles). */
export function PowerSwitch({
  label,
  checked,
  pending,
  disabled,
  onChange,
  testId,
}: {
  label: string;
  checked: boolean;
  pending: boolean;
  disabled: boolean;
  onChange: (on: boolean) => void;
  testId: string;
}) {
  return (
    <Group justify="space-between" wrap="nowrap" gap="xs">
      <Switch
        size="sm"
        label={label}
        checked={checked}
        disabled={disabled || pending}
        onChange={(e) => onChange(e.currentTarget.checked)}
        data-testid={testId}
        aria-busy={pending}
      />
      {pending && <Loader size={14} data-testid={`${testId}-pending`} />}
    </Group>
  );
}

/**
 * Camera switches in the header's power menu (spec 1 §4 Camera power): all cameras, each
 * camera, and the demo mode. Disabled while a command is pending or while demo mode is on.
 */
export function CameraPowerSection() {
  const allowed = useCan(P.POWER_BTN);
  const qc = useQueryClient();
  const { data, isPending: loading, isError } = useCameraStatus();
  const power = usePowerCommand();
  const [demoBusy, setDemoBusy] = useState(false);

  // Spec 1 §7 "read demo mode": the status call carries it too, but the host side may have changed it.
  useEffect(() => {
    if (!allowed) return;
    getDemoMode()
      .then((demo) => qc.setQueryData<CameraStatus>(CAMERA_STATUS_KEY, (s) => (s ? { ...s, demo } : s)))
      .catch(() => undefined);
  }, [allowed, qc]);

  if (!allowed) return null;
  if (loading) return <Loader size="sm" m="sm" />;
  if (isError || !data)
    return (
      <Text size="sm" c="red">
        {MSG.common.genericError}
      </Text>
    );

  const names = Object.keys(data.cameras).sort();
  const summary = summarise(data.cameras);
  const locked = data.demo;

  const handleDemo = (demo: boolean) => {
    setDemoBusy(true);
    setDemoMode(demo)
      .then((value) => qc.setQueryData<CameraStatus>(CAMERA_STATUS_KEY, (s) => (s ? { ...s, demo: value } : s)))
      .catch(() => showErrorModal())
      .finally(() => setDemoBusy(false));
  };

  return (
    <Stack gap={8} p="xs" miw={220} data-testid="camera-power-section">
      <Text size="xs" fw={700} c="dimmed" tt="uppercase">
        Cameras
      </Text>
      {names.length === 0 ? (
        <Text size="sm" c="dimmed">
          {MSG.cameras.noCameras}
        </Text>
      ) : (
        <>
          <PowerSwitch
            label="All cameras"
            testId="power-all"
            checked={summary.kind === 'on'}
            pending={power.isPending(null)}
            disabled={locked || power.anyPending}
            onChange={(on) => void power.run(null, on)}
          />
          <Divider />
          {names.map((name) => (
            <PowerSwitch
              key={name}
              label={name}
              testId={`power-${name}`}
              checked={data.cameras[name] === 'on'}
              pending={power.isPending(name)}
              disabled={locked}
              onChange={(on) => void power.run(name, on)}
            />
          ))}
        </>
      )}
      <Divider />
      <PowerSwitch
        label="Demo mode"
        testId="demo-mode"
        checked={data.demo}
        pending={demoBusy}
        disabled={false}
        onChange={handleDemo}
      />
    </Stack>
  );
}
