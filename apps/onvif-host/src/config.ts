import { readFile } from 'node:fs/promises';
import { z } from 'zod';

/*
 * cameras.json (docs/cameras-onvif.md). Secrets are never in the file: each camera names the
 * environment variable that holds its password, and the host's device token comes from
 * DEVICE_TOKEN (or the variable `deviceTokenEnv` names).
 */
const range = z.tuple([z.number(), z.number()]).refine(([a, b]) => a !== b, 'A range needs two different ends');

const CameraSchema = z
  .object({
    id: z.string().regex(/^cam\d{1,3}$/, 'A camera id is cam<N> (the seat map names cameras so)'),
    url: z.url(),
    username: z.string().min(1),
    passwordEnv: z.string().regex(/^[A-Z_][A-Z0-9_]*$/, 'passwordEnv names an environment variable'),
    /** The media profile's token (default: the camera's first profile with video). */
    profile: z.string().optional(),
    /** Which seat-map units are the camera's whole range, per axis (default ±1e9, zoom 0..1). */
    ranges: z.object({ pan: range.optional(), tilt: range.optional(), zoom: range.optional() }).strict().optional(),
  })
  .strict();

const ConfigSchema = z
  .object({
    server: z.url(),
    hostId: z.string().min(1).max(64),
    deviceTokenEnv: z.string().default('DEVICE_TOKEN'),
    /** Frames per second per camera (each camera's fps setting can change it later). */
    fps: z.number().int().min(1).max(5).default(3),
    /** Live time per fan before the photo. */
    turnMs: z.number().int().min(1000).max(60_000).default(6000),
    /** How long a photo waits for the camera to report its move done. */
    moveTimeoutMs: z.number().int().min(100).max(30_000).default(5000),
    snapshotTimeoutMs: z.number().int().min(100).max(60_000).default(4000),
    /** A snapshot above this is refused (bytes). */
    maxSnapshotBytes: z.number().int().min(10_000).max(50_000_000).default(8_000_000),
    /** Every ONVIF call gives up after this. */
    requestTimeoutMs: z.number().int().min(200).max(60_000).default(5000),
    /** Reconnect back-off: first and longest wait. */
    retryMs: z.tuple([z.number().int().min(50), z.number().int().min(50)]).default([1000, 30_000]),
    cameras: z.array(CameraSchema).min(1).max(64),
  })
  .strict()
  .refine((c) => new Set(c.cameras.map((x) => x.id)).size === c.cameras.length, 'Each camera id once');

export type CameraConfig = z.infer<typeof CameraSchema> & { password: string };
export type HostConfig = Omit<z.infer<typeof ConfigSchema>, 'cameras'> & {
  deviceToken: string;
  cameras: CameraConfig[];
};

/** Parses a config and takes its secrets from `env`; throws one message naming every problem. */
export function parseConfig(json: unknown, env: NodeJS.ProcessEnv): HostConfig {
  const parsed = ConfigSchema.safeParse(json);
  if (!parsed.success) {
    throw new Error(
      `cameras config: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(file)'}: ${i.message}`).join('; ')}`,
    );
  }
  const c = parsed.data;
  const missing: string[] = [];
  const secret = (name: string) => {
    const v = env[name];
    if (!v) missing.push(name);
    return v ?? '';
  };
  const deviceToken = secret(c.deviceTokenEnv);
  const cameras = c.cameras.map((cam) => ({ ...cam, password: secret(cam.passwordEnv) }));
  if (missing.length) throw new Error(`cameras config: set the environment variable(s) ${missing.join(', ')}`);
  return { ...c, deviceToken, cameras };
}

export async function loadConfig(file: string, env: NodeJS.ProcessEnv): Promise<HostConfig> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(file, 'utf8'));
  } catch (err) {
    throw new Error(`cameras config ${file}: ${(err as Error).message}`);
  }
  return parseConfig(json, env);
}
