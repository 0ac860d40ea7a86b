import { describe, expect, it } from 'vitest';
import { DEFAULT_COLORS } from '@stadiumcam/contract';
import { contrastRatio, contrastWarnings } from './colour-contrast.ts';

describe('the Colours screen contrast warning (issue 28 point 4)', () => {
  it('measures contrast as WCAG 2 does', () => {
    expect(contrastRatio('#000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#ffffff', '#099268')).toBeCloseTo(3.95, 2);
    expect(contrastRatio('#828282', '#242424')).toBeCloseTo(4.04, 2);
    expect(contrastRatio('teal', '#fff')).toBeNull();
  });

  it('names each text/background pair of the app below 4.5:1, and none for the defaults', () => {
    expect(contrastWarnings(DEFAULT_COLORS)).toEqual([]);
    const colors = {
      ...DEFAULT_COLORS,
      theme: {
        ...DEFAULT_COLORS.theme,
        backgroundColor: '#ffffff',
        mainTextColor: '#868e96',
        secondaryColor: '#ffffff',
      },
    };
    const found = contrastWarnings(colors);
    expect(found.map((w) => `${w.text}/${w.background}`)).toEqual([
      'mainTextColor/backgroundColor',
      'secondaryTextColor/backgroundColor',
      'activeColor/backgroundColor',
      'mainTextColor/secondaryColor',
    ]);
    expect(found[0].ratio).toBeCloseTo(3.32, 2);
  });
});
