import { z } from 'zod';
import {
  CameraConfigSchema,
  checkConfigValue,
  type CameraConfig,
  type CameraWithConfigs,
  type HostInfo,
} from '@stadiumcam/contract';
import type { Deps } from '../../deps.ts';
import { badRequest, conflict, notFound, ERR } from '../../errors.ts';
import type { DeviceSocket } from './cameras.service.ts';
import { listCameraConfigs, setCameraConfigs, type CameraConfigRow } from './camera-configs.repository.ts';
import { auditNote } from '../../audit-context.ts';

const ReportSchema = z.object({ camera: z.string().max(40), configs: z.array(CameraConfigSchema).max(200) });

function toCamera(deps: Deps, row: CameraConfigRow): CameraWithConfigs {
  const parsed = z.array(CameraConfigSchema).safeParse(row.configs);
  return {
    _id: row.cameraKey,
    cameraKey: row.cameraKey,
    configs: parsed.success ? parsed.data : [],
    cameraSettings: row.cameraSettings,
    host: (deps.cameras.get(row.cameraKey)?.host ?? null) satisfies HostInfo | null,
  };
}

export async function listCameras(deps: Deps): Promise<CameraWithConfigs[]> {
  return (await listCameraConfigs(deps.db)).map((r) => toCamera(deps, r));
}

/** A host describes its camera's settings (after hello and after each change): stored as reported. */
export async function hostReportedConfigs(deps: Deps, socket: DeviceSocket, raw: unknown): Promise<void> {
  const parsed = ReportSchema.safeParse(raw);
  if (!parsed.success) {
    deps.log.warn({ hostId: socket.data.hostId, issues: parsed.error.issues.slice(0, 3) }, 'bad camera configs');
    return;
  }
  const { camera, configs } = parsed.data;
  const host = deps.cameras.hostOf(camera);
  if ('error' in host || host.socket !== socket) {
    deps.log.warn({ hostId: socket.data.hostId, camera }, 'camera configs for a camera this host does not serve');
    return;
  }
  await setCameraConfigs(deps.db, camera, configs);
  deps.realtime.consoles.emit('camera configs', { camera });
}

/**
 * New values from the Camera Configs page: each checked against the widget the host described
 * (spec 3 §5), relayed to the host, and stored once the host applied them (nothing changes on failure).
 */
export async function updateCameraConfigs(
  deps: Deps,
  key: string,
  body: { camera: string; configs: { configKey: string; configValue: string | number }[] },
  username: string,
): Promise<CameraWithConfigs> {
  if (body.camera !== key) throw badRequest(ERR.cameras.bodyCameraDiffers);
  const [row] = await listCameraConfigs(deps.db, [key]);
  if (!row) throw notFound(ERR.cameras.unknownCamera(key));
  const current = toCamera(deps, row).configs;
  const byKey = new Map(current.map((c) => [c.configKey, c]));
  const values: { configKey: string; configValue: string | number }[] = [];
  const errors: string[] = [];
  for (const v of body.configs) {
    const config = byKey.get(v.configKey);
    if (!config) {
      errors.push(`${key} has no setting "${v.configKey.slice(0, 100)}"`);
      continue;
    }
    const checked = checkConfigValue(config, v.configValue);
    if ('error' in checked) errors.push(checked.error);
    else values.push({ configKey: v.configKey, configValue: checked.value });
  }
  if (errors.length) throw badRequest(ERR.cameras.configValueInvalid(errors[0]), errors);
  auditNote({
    detail: {
      before: Object.fromEntries(values.map((v) => [v.configKey, byKey.get(v.configKey)?.configValue ?? null])),
      after: Object.fromEntries(values.map((v) => [v.configKey, v.configValue])),
    },
  });
  const host = deps.cameras.hostOf(key);
  if ('error' in host) throw conflict({ code: host.code, text: host.error });
  let answer;
  try {
    answer = (await host.ask('configs', { camera: key, configs: values }, deps.config.hostAckTimeoutMs)) as
      { ok: true } | { ok: false; error: string };
  } catch {
    throw conflict(ERR.cameras.hostNoAnswer);
  }
  if (!answer.ok) throw conflict(ERR.cameras.hostRefused(answer.error));
  const changed = new Map(values.map((v) => [v.configKey, v.configValue]));
  const next: CameraConfig[] = current.map((c) =>
    changed.has(c.configKey) ? { ...c, configValue: changed.get(c.configKey)! } : c,
  );
  await setCameraConfigs(deps.db, key, next);
  deps.log.info({ user: username, camera: key, keys: [...changed.keys()] }, 'camera configs updated');
  return { ...toCamera(deps, row), configs: next };
}
