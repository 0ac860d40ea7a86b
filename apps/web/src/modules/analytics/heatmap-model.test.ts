import { describe, expect, it } from 'vitest';
import {
  DIFF_STOPS,
  HEAT_STOPS,
  NONE,
  bowlLayout,
  diffColor,
  heatColor,
  inkOn,
  placeText,
  sectionName,
  type HeatSection,
} from './heatmap-model.ts';

const section = (seatType: string, name: string): HeatSection => ({
  seatType,
  section: name,
  rows: ['A'],
  mins: 1,
  maxs: 1,
  count: 0,
  compareCount: null,
});

/** WCAG contrast of two #rrggbb colours. */
function contrast(a: string, b: string) {
  const l = (c: string) => {
    const [r, g, bl] = [1, 3, 5].map((i) => {
      const v = parseInt(c.slice(i, i + 2), 16) / 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [x, y] = [l(a), l(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
}

describe('seat heat map model', () => {
  it('draws tiers as rings from the field out, other seat types outside, sections clockwise from the top', () => {
    const sections = [
      ...['101', '102', '103', '104'].map((n) => section('section', n)),
      ...['201', '202'].map((n) => section('section', n)),
      section('box', 'B1'),
    ];
    const sectors = bowlLayout(sections);
    expect(sectors.map((s) => s.section.section)).toEqual(['101', '102', '103', '104', '201', '202', 'B1']);
    const dist = (s: (typeof sectors)[number]) => Math.hypot(s.labelX - 260, (s.labelY - 180) * (260 / 180));
    // Inner tier nearer the field than the outer tier, boxes outermost.
    expect(dist(sectors[0])).toBeLessThan(dist(sectors[4]));
    expect(dist(sectors[4])).toBeLessThan(dist(sectors[6]));
    // 101 starts at the top and runs clockwise: right of centre and above it; 103 below.
    expect(sectors[0].labelX).toBeGreaterThan(260);
    expect(sectors[0].labelY).toBeLessThan(180);
    expect(sectors[2].labelY).toBeGreaterThan(180);
    expect(new Set(sectors.map((s) => s.path)).size).toBe(7);
  });

  it('colours 0 grey, the largest count the ramp end, differences magenta or blue', () => {
    expect(heatColor(0, 10)).toBe(NONE);
    expect(heatColor(10, 10)).toBe(HEAT_STOPS.at(-1));
    expect(heatColor(1, 0)).toBe(NONE);
    expect(diffColor(0, 5)).toBe(NONE);
    expect(diffColor(5, 5)).toBe(DIFF_STOPS.at(-1));
    expect(diffColor(-5, 5)).toBe(DIFF_STOPS[0]);
  });

  it('labels every fill of both scales at 4.5:1 or better', () => {
    for (let i = 0; i <= 100; i++) {
      for (const fill of [heatColor(i, 100), diffColor(i, 100), diffColor(-i, 100)])
        expect(contrast(fill, inkOn(fill))).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('says the count, or the change and both counts', () => {
    expect(placeText(sectionName({ seatType: 'section', section: '105' }), 'joins', 9, null)).toBe(
      'Section 105: 9 joins',
    );
    expect(placeText('Box B1', 'photos', 1, null)).toBe('Box B1: 1 photo');
    expect(placeText('Section 101', 'shares', 2, { compareCount: 5, title: 'Past Game' })).toBe(
      'Section 101: -3 shares against Past Game (2 vs 5)',
    );
    expect(sectionName({ seatType: 'custom_type_1', section: 'C2' })).toBe('Custom type 1 C2');
  });
});
