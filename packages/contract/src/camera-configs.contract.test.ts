import { describe, expect, it } from 'vitest';
import {
  checkConfigValue,
  configCategory,
  configWords,
  rangeStep,
  type CameraConfig,
} from './camera-configs.contract.ts';

const range = (c: Partial<CameraConfig>): CameraConfig => ({
  configKey: 'exposure',
  configValue: 0,
  widgetType: 'RANGE',
  ...c,
});
const text = (c: Partial<CameraConfig>): CameraConfig => ({
  configKey: 'acs.rover.label',
  configValue: 'PTU',
  widgetType: 'TEXT',
  ...c,
});

describe('camera config form rules (spec 3 §5)', () => {
  it('RANGE step: 0.1 when a bound is fractional and the step is not, else the config’s step (1 when none)', () => {
    expect(rangeStep({ bottom: -1.5, top: 1.5, step: 1 })).toBe(0.1);
    expect(rangeStep({ bottom: 0, top: 2.5, step: 2 })).toBe(0.1);
    expect(rangeStep({ bottom: 0.5, top: 10 })).toBe(0.1);
    // A fractional step is kept, fractional bounds or not.
    expect(rangeStep({ bottom: -1.5, top: 1.5, step: 0.25 })).toBe(0.25);
    expect(rangeStep({ bottom: 0, top: 1, step: 0.05 })).toBe(0.05);
    // Whole bounds keep the step.
    expect(rangeStep({ bottom: 20, top: 90, step: 5 })).toBe(5);
    expect(rangeStep({ bottom: 1, top: 5 })).toBe(1);
    expect(rangeStep({})).toBe(1);
  });

  it('RANGE values are required, numeric, within the bounds, and converted to numbers', () => {
    const c = range({ bottom: -1.5, top: 1.5, step: 1 });
    expect(checkConfigValue(c, '0.7')).toEqual({ value: 0.7 });
    expect(checkConfigValue(c, -1.5)).toEqual({ value: -1.5 });
    expect(checkConfigValue(c, 1.5)).toEqual({ value: 1.5 });
    expect(checkConfigValue(c, '')).toEqual({ error: 'Exposure is required' });
    expect(checkConfigValue(c, undefined)).toEqual({ error: 'Exposure is required' });
    expect(checkConfigValue(c, 'bright')).toEqual({ error: 'Exposure must be a number' });
    expect(checkConfigValue(c, -1.6)).toEqual({ error: 'Exposure must be at least -1.5' });
    expect(checkConfigValue(c, '1.51')).toEqual({ error: 'Exposure must be at most 1.5' });
  });

  it('TEXT values are required and held between the min and max length', () => {
    const c = text({ min: 2, max: 30 });
    expect(checkConfigValue(c, 'North stand PTU')).toEqual({ value: 'North stand PTU' });
    expect(checkConfigValue(c, 'ab')).toEqual({ value: 'ab' });
    expect(checkConfigValue(c, 'x'.repeat(30))).toEqual({ value: 'x'.repeat(30) });
    expect(checkConfigValue(c, 'x'.repeat(31))).toEqual({ error: 'Label takes at most 30 characters' });
    expect(checkConfigValue(c, 'a')).toEqual({ error: 'Label needs at least 2 characters' });
    expect(checkConfigValue(c, '')).toEqual({ error: 'Label is required' });
    // Without limits any non-empty text is taken.
    expect(checkConfigValue(text({}), 'y'.repeat(500))).toEqual({ value: 'y'.repeat(500) });
  });

  it('RADIO and MENU values are one of the choices', () => {
    const radio: CameraConfig = {
      configKey: 'acs.rover.mode',
      configValue: 'auto',
      widgetType: 'RADIO',
      choices: ['auto', 'manual'],
    };
    expect(checkConfigValue(radio, 'manual')).toEqual({ value: 'manual' });
    expect(checkConfigValue(radio, 'off')).toEqual({ error: 'Mode must be one of auto, manual' });
    expect(checkConfigValue({ ...radio, widgetType: 'MENU' }, 'auto')).toEqual({ value: 'auto' });
  });

  it('names a setting and a group in words, abbreviations in capitals (issue 28 point 5)', () => {
    expect(configWords('jpegQuality')).toBe('JPEG quality');
    expect(configWords('fps')).toBe('FPS');
    expect(configWords('whiteBalance')).toBe('White balance');
    expect(configWords('acs.rover.mode')).toBe('Mode');
    expect(configWords('acs.stream.overlayLabel')).toBe('Overlay label');
    expect(configWords('onvif.ptz_speed')).toBe('PTZ speed');
    expect(configWords('acs.rover', true)).toBe('ACS rover');
    // Nothing to say in words: the key itself.
    expect(configWords('acs.')).toBe('acs.');
  });

  it('groups settings by their dotted prefix, the rest under General Settings', () => {
    expect(configCategory('jpegQuality')).toBe('General Settings');
    expect(configCategory('acs.rover.mode')).toBe('acs.rover');
    expect(configCategory('acs.stream.overlayLabel')).toBe('acs.stream');
  });
});
