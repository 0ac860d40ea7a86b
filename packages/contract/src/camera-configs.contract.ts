import { z } from 'zod';
import { defineRoute } from './route.ts';
import { P } from './permissions.ts';
import { CameraKeySchema, HostInfoSchema } from './cameras.contract.ts';

/*
 * Per-camera settings a camera host reports (spec 2.6, §3 Camera, §5 camera config form).
 * The host describes each setting with its widget; the console edits values; the server
 * checks them against the host's description, stores them and relays them to the host.
 */

export const WIDGET_TYPES = ['RADIO', 'MENU', 'RANGE', 'TEXT'] as const;
export type WidgetType = (typeof WIDGET_TYPES)[number];
/** Changing this one needs the host's ACS restarted (the console sends 'restart acs'). */
export const ROVER_MODE_KEY = 'acs.rover.mode';

const ConfigValue = z.union([z.string().max(1000), z.number()]);

export const CameraConfigSchema = z.object({
  configKey: z
    .string()
    .min(1)
    .max(100)
    .regex(/^[A-Za-z0-9_.-]+$/),
  configValue: ConfigValue,
  widgetType: z.enum(WIDGET_TYPES),
  /** RADIO and MENU choices. */
  choices: z.array(z.string().max(200)).max(100).optional(),
  /** RANGE: step and numeric bounds. */
  step: z.number().positive().optional(),
  bottom: z.number().optional(),
  top: z.number().optional(),
  /** TEXT: length limits. */
  min: z.number().int().min(0).optional(),
  max: z.number().int().min(0).optional(),
});
export type CameraConfig = z.infer<typeof CameraConfigSchema>;

/** spec 3 §3 Camera. */
export const CameraWithConfigsSchema = z.object({
  _id: z.string(),
  cameraKey: z.string(),
  configs: z.array(CameraConfigSchema),
  cameraSettings: z.record(z.string(), z.unknown()),
  /** Live host information for the Device row; null = 'No info available'. */
  host: HostInfoSchema.nullable(),
});
export type CameraWithConfigs = z.infer<typeof CameraWithConfigsSchema>;

/** The group a setting shows under: 'General Settings' or its dotted prefix (acs.rover). */
export function configCategory(key: string): string {
  const i = key.lastIndexOf('.');
  return i < 0 ? 'General Settings' : key.slice(0, i);
}

/** Abbreviations a setting's key writes in lower case and a person reads in capitals. */
const ACRONYMS = new Set(['acs', 'fps', 'jpeg', 'ptu', 'ptz', 'ip', 'id', 'url', 'ir', 'wdr', 'hdr']);

/**
 * A setting's key in words for the Camera Configs table (issue 28 point 5; the key itself is
 * shown beside it for the host's documentation): the last part of the key, camelCase and
 * snake_case split, abbreviations in capitals. `jpegQuality` → 'JPEG quality',
 * `acs.rover.mode` → 'Mode'; a group: `acs.rover` → 'ACS rover'.
 */
export function configWords(key: string, whole = false): string {
  const part = whole ? key.replace(/\./g, ' ') : key.slice(key.lastIndexOf('.') + 1);
  const words = part
    .replace(/([a-z\d])([A-Z])/g, '$1 $2')
    .split(/[\s_-]+/)
    .filter(Boolean)
    .map((w) => (ACRONYMS.has(w.toLowerCase()) ? w.toUpperCase() : w.toLowerCase()));
  const text = words.join(' ');
  return text ? text[0].toUpperCase() + text.slice(1) : key;
}

/** spec 3 §5: step 0.1 when the bounds are fractional and the step is not. */
export function rangeStep(c: Pick<CameraConfig, 'step' | 'bottom' | 'top'>): number {
  const step = c.step ?? 1;
  const fractional = (n: number | undefined) => n !== undefined && !Number.isInteger(n);
  return (fractional(c.bottom) || fractional(c.top)) && Number.isInteger(step) ? 0.1 : step;
}

/** Checks one value against its widget (spec 3 §5); the error text, or the value to store. */
export function checkConfigValue(c: CameraConfig, value: unknown): { value: string | number } | { error: string } {
  // In words, as the table's row names it: the error shows under the field (issue 28 point 5).
  const name = configWords(c.configKey);
  if (value === undefined || value === null || value === '') return { error: `${name} is required` };
  switch (c.widgetType) {
    case 'RANGE': {
      const n = typeof value === 'number' ? value : Number(value);
      if (!Number.isFinite(n)) return { error: `${name} must be a number` };
      if (c.bottom !== undefined && n < c.bottom) return { error: `${name} must be at least ${c.bottom}` };
      if (c.top !== undefined && n > c.top) return { error: `${name} must be at most ${c.top}` };
      return { value: n };
    }
    case 'RADIO':
    case 'MENU': {
      const s = String(value);
      if (c.choices && !c.choices.includes(s)) return { error: `${name} must be one of ${c.choices.join(', ')}` };
      return { value: s };
    }
    case 'TEXT': {
      const s = String(value);
      if (c.min !== undefined && s.length < c.min) return { error: `${name} needs at least ${c.min} characters` };
      if (c.max !== undefined && s.length > c.max) return { error: `${name} takes at most ${c.max} characters` };
      return { value: s };
    }
  }
}

export const cameraConfigsRoutes = {
  list: defineRoute({
    method: 'GET',
    path: '/api/cameras/configs',
    permission: P.CONFIG,
    response: z.array(CameraWithConfigsSchema),
  }),
  /** Saves new values and relays them to the host (spec 3 §7: camera, configs[], _id). */
  update: defineRoute({
    method: 'POST',
    audit: 'camera.config',
    path: '/api/cameras/configs/:key',
    permission: P.CONFIG,
    params: z.object({ key: CameraKeySchema }),
    body: z.object({
      camera: CameraKeySchema,
      _id: z.string().max(100).optional(),
      configs: z
        .array(z.object({ configKey: z.string().min(1).max(100), configValue: ConfigValue }))
        .min(1)
        .max(500),
    }),
    response: CameraWithConfigsSchema,
  }),
};
