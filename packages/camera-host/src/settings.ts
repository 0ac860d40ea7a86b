import { ROVER_MODE_KEY, checkConfigValue, type CameraConfig } from '@stadiumcam/contract';

/*
 * A camera's settings as the host reports them with their widgets (Camera Configs page) and
 * how the brain honours the ones it owns: `fps` paces the camera's frames and the rover mode
 * takes effect at the next 'restart acs' (manual = the camera stays where the operator put it
 * instead of aiming at each fan). A driver adds its own settings (picture, labels...).
 */
export type RoverMode = 'auto' | 'manual';

/** Keys the host shows but an operator cannot set (e.g. the camera's connection state). */
const READ_ONLY = /^host\./;

export const fpsConfig = (fps: number): CameraConfig => ({
  configKey: 'fps',
  configValue: fps,
  widgetType: 'RANGE',
  bottom: 1,
  top: 5,
  step: 1,
});
export const roverModeConfig = (): CameraConfig => ({
  configKey: ROVER_MODE_KEY,
  configValue: 'auto',
  widgetType: 'RADIO',
  choices: ['auto', 'manual'],
});

export class CameraSettings {
  /** The rover mode running now; a changed setting waits for 'restart acs'. */
  roverMode: RoverMode = 'auto';

  /** `configs` should hold `fpsConfig` and `roverModeConfig` (the brain reads them). */
  constructor(readonly configs: CameraConfig[]) {}

  value(key: string): string | number | undefined {
    return this.configs.find((c) => c.configKey === key)?.configValue;
  }

  /** Sets a value the host itself keeps (a read-only `host.*` key); adds it when new. */
  set(key: string, value: string): void {
    const c = this.configs.find((x) => x.configKey === key);
    if (c) c.configValue = value;
    else this.configs.push({ configKey: key, configValue: value, widgetType: 'TEXT', min: 1, max: 200 });
  }

  get fps(): number {
    return Number(this.value('fps'));
  }

  /** Applies new values after checking each against its widget; an error text when one is refused. */
  apply(values: { configKey: string; configValue: string | number }[]): string | null {
    const checked = values.map((v) => {
      const c = this.configs.find((x) => x.configKey === v.configKey);
      if (c && READ_ONLY.test(c.configKey) && c.configValue !== v.configValue)
        return { c, r: { error: `${c.configKey} is set by the host` } };
      return c ? { c, r: checkConfigValue(c, v.configValue) } : { c, r: { error: `No setting "${v.configKey}"` } };
    });
    const bad = checked.find((x) => 'error' in x.r);
    if (bad) return (bad.r as { error: string }).error;
    for (const { c, r } of checked) if (c && 'value' in r) c.configValue = r.value;
    return null;
  }

  /** 'restart acs': the ACS comes back with the configured rover mode. */
  restart(): void {
    this.roverMode = this.value(ROVER_MODE_KEY) === 'manual' ? 'manual' : 'auto';
  }
}
