import { CameraSettings, fpsConfig, roverModeConfig } from '@stadiumcam/camera-host';

/*
 * The settings a simulated camera reports with their widgets (Camera Configs page): the host
 * brain's own (fps, rover mode: packages/camera-host) and the picture's, which the simulator's
 * driver honours (jpeg quality and exposure change the picture).
 */
export class SimCameraSettings extends CameraSettings {
  constructor(fps: number) {
    super([
      fpsConfig(fps),
      { configKey: 'jpegQuality', configValue: 50, widgetType: 'RANGE', bottom: 20, top: 90, step: 5 },
      { configKey: 'exposure', configValue: 0, widgetType: 'RANGE', bottom: -1.5, top: 1.5, step: 1 },
      {
        configKey: 'whiteBalance',
        configValue: 'auto',
        widgetType: 'MENU',
        choices: ['auto', 'daylight', 'cloudy', 'tungsten'],
      },
      roverModeConfig(),
      { configKey: 'acs.rover.label', configValue: 'Simulated PTU', widgetType: 'TEXT', min: 1, max: 30 },
      { configKey: 'acs.stream.overlayLabel', configValue: 'on', widgetType: 'RADIO', choices: ['on', 'off'] },
    ]);
  }

  get jpegQuality(): number {
    return Number(this.value('jpegQuality'));
  }
  /** Picture brightness factor from the exposure (EV). */
  get brightness(): number {
    return 2 ** Number(this.value('exposure'));
  }
}
