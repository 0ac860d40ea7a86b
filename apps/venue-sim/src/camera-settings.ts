import { ROVER_MODE_KEY, checkConfigValue, type CameraConfig } from '@stadiumcam/contract';

/*
 * The settings a simulated camera reports with their widgets (Camera Configs page) and how it
 * honours them: fps paces its frames, jpeg quality and exposure change the picture, and the
 * rover mode takes effect at the next 'restart acs' (manual = the camera stays where the
 * operator put it instead of aiming at each fan).
 */
export type RoverMode = 'auto' | 'manual';

export class CameraSettings {
  readonly configs: CameraConfig[];
  /** The rover mode running now; a changed setting waits for 'restart acs'. */
  roverMode: RoverMode = 'auto';

  constructor(fps: number) {
    this.configs = [
      { configKey: 'fps', configValue: fps, widgetType: 'RANGE', bottom: 1, top: 5, step: 1 },
      { configKey: 'jpegQuality', configValue: 50, widgetType: 'RANGE', bottom: 20, top: 90, step: 5 },
      { configKey: 'exposure', configValue: 0, widgetType: 'RANGE', bottom: -1.5, top: 1.5, step: 1 },
      {
        configKey: 'whiteBalance',
        configValue: 'auto',
        widgetType: 'MENU',
        choices: ['auto', 'daylight', 'cloudy', 'tungsten'],
      },
      { configKey: ROVER_MODE_KEY, configValue: 'auto', widgetType: 'RADIO', choices: ['auto', 'manual'] },
      { configKey: 'acs.rover.label', configValue: 'Simulated PTU', widgetType: 'TEXT', min: 1, max: 30 },
      { configKey: 'acs.stream.overlayLabel', configValue: 'on', widgetType: 'RADIO', choices: ['on', 'off'] },
    ];
  }

  value(key: string): string | number | undefined {
    return this.configs.find((c) => c.configKey === key)?.configValue;
  }

  get fps(): number {
    return Number(this.value('fps'));
  }
  get jpegQuality(): number {
    return Number(this.value('jpegQuality'));
  }
  /** Picture brightness factor from the exposure (EV). */
  get brightness(): number {
    return 2 ** Number(this.value('exposure'));
  }

  /** Applies new values after checking each against its widget; an error text when one is refused. */
  apply(values: { configKey: string; configValue: string | number }[]): string | null {
    const checked = values.map((v) => {
      const c = this.configs.find((x) => x.configKey === v.configKey);
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
