import type { Heatmap, HeatmapMetric } from '@stadiumcam/contract';

/*
 * The seat heat map's drawing rules (docs/analytics.md, Seat heat map): where each section sits
 * in the bowl, its colour, and the words of its hover text. Kept apart from React so the rules
 * are unit-tested.
 */

export type HeatSection = Heatmap['sections'][number];
export type Sector = { key: string; section: HeatSection; path: string; labelX: number; labelY: number };

/** Viewbox of the bowl. */
export const BOWL = { width: 520, height: 360 };
const FIELD = 0.34;
const GAP_DEG = 1.2;
const RING_GAP = 0.02;

export const sectionKey = (s: { seatType: string; section: string }) => `${s.seatType}\n${s.section}`;

/**
 * The ring a section is drawn in: sections by their tier (the digits before the last two, so
 * 101-116 and 201-216 are two tiers), every other seat type (box, suite, ...) a ring of its own
 * outside them.
 */
function ringOf(s: HeatSection): { order: number; name: string } {
  if (s.seatType === 'section') {
    const tier = /^(\d+)\d\d$/.exec(s.section)?.[1];
    return tier ? { order: Number(tier), name: `section ${tier}` } : { order: 1000, name: 'section' };
  }
  return { order: 2000, name: s.seatType };
}

const point = (cx: number, cy: number, rx: number, ry: number, deg: number) => {
  const a = (deg * Math.PI) / 180;
  return [cx + rx * Math.cos(a), cy + ry * Math.sin(a)] as const;
};
const f = (n: number) => n.toFixed(1);

/**
 * The bowl: the field in the middle, each ring an ellipse band around it, its sections as equal
 * sectors clockwise from the top, in the server's (natural) order.
 */
export function bowlLayout(sections: HeatSection[]): Sector[] {
  const rings = new Map<string, { order: number; sections: HeatSection[] }>();
  for (const s of sections) {
    const r = ringOf(s);
    const ring = rings.get(r.name) ?? { order: r.order, sections: [] };
    ring.sections.push(s);
    rings.set(r.name, ring);
  }
  const ordered = [...rings.entries()].sort((a, b) => a[1].order - b[1].order || a[0].localeCompare(b[0]));
  const cx = BOWL.width / 2;
  const cy = BOWL.height / 2;
  const RX = BOWL.width / 2 - 4;
  const RY = BOWL.height / 2 - 4;
  const band = (1 - FIELD) / Math.max(1, ordered.length);
  const out: Sector[] = [];
  ordered.forEach(([, ring], i) => {
    const inner = FIELD + i * band + RING_GAP / 2;
    const outer = FIELD + (i + 1) * band - RING_GAP / 2;
    const step = 360 / ring.sections.length;
    const gap = ring.sections.length > 1 ? GAP_DEG : 0;
    ring.sections.forEach((s, j) => {
      const a0 = -90 + j * step + gap / 2;
      const a1 = -90 + (j + 1) * step - gap / 2;
      const large = a1 - a0 > 180 ? 1 : 0;
      const [x0, y0] = point(cx, cy, RX * outer, RY * outer, a0);
      const [x1, y1] = point(cx, cy, RX * outer, RY * outer, a1);
      const [x2, y2] = point(cx, cy, RX * inner, RY * inner, a1);
      const [x3, y3] = point(cx, cy, RX * inner, RY * inner, a0);
      const path =
        `M${f(x0)} ${f(y0)} A${f(RX * outer)} ${f(RY * outer)} 0 ${large} 1 ${f(x1)} ${f(y1)} ` +
        `L${f(x2)} ${f(y2)} A${f(RX * inner)} ${f(RY * inner)} 0 ${large} 0 ${f(x3)} ${f(y3)}Z`;
      const [labelX, labelY] = point(cx, cy, (RX * (inner + outer)) / 2, (RY * (inner + outer)) / 2, (a0 + a1) / 2);
      out.push({ key: sectionKey(s), section: s, path, labelX, labelY });
    });
  });
  return out;
}

/** The field inside the innermost ring. */
export const fieldEllipse = () => ({
  cx: BOWL.width / 2,
  cy: BOWL.height / 2,
  rx: (BOWL.width / 2 - 4) * (FIELD - 0.03),
  ry: (BOWL.height / 2 - 4) * (FIELD - 0.03),
});

// Sequential (counts) and diverging (difference) scales; 0 is a neutral grey in both.
const HEAT = ['#fff3e0', '#ffcc80', '#ff9800', '#e65100', '#7f2704'];
const MORE = ['#fde0dd', '#f768a1', '#ae017e'];
const FEWER = ['#deebf7', '#6baed6', '#08519c'];
export const NONE = '#e9ecef';

const hex = (c: string) => [1, 3, 5].map((i) => parseInt(c.slice(i, i + 2), 16));
function ramp(stops: string[], t: number): string {
  const x = Math.min(1, Math.max(0, t)) * (stops.length - 1);
  const i = Math.min(stops.length - 2, Math.floor(x));
  const [a, b] = [hex(stops[i]), hex(stops[i + 1])];
  return `#${a
    .map((v, k) =>
      Math.round(v + (b[k] - v) * (x - i))
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}

/** A count's colour against the largest count on the page (both maps share it). */
export const heatColor = (n: number, max: number) => (n <= 0 || max <= 0 ? NONE : ramp(HEAT, n / max));
/** A difference's colour: more in this event (magenta) or fewer (blue), against the largest difference. */
export const diffColor = (d: number, maxAbs: number) =>
  d === 0 || maxAbs <= 0 ? NONE : d > 0 ? ramp(MORE, d / maxAbs) : ramp(FEWER, -d / maxAbs);
/** Relative luminance (WCAG 2). */
const luminance = (fill: string) => {
  const [r, g, b] = hex(fill).map((v) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};
/** Black or white, whichever contrasts more with the fill (one of them is always above 4.5:1). */
export const inkOn = (fill: string) =>
  (luminance(fill) + 0.05) / 0.05 >= 1.05 / (luminance(fill) + 0.05) ? '#000000' : '#ffffff';
/** Scale stops for the legend. */
export const HEAT_STOPS = HEAT;
export const DIFF_STOPS = [...FEWER].reverse().concat(MORE);

const UNIT: Record<HeatmapMetric, [string, string]> = {
  joins: ['join', 'joins'],
  photos: ['photo', 'photos'],
  shares: ['share', 'shares'],
};
export const countText = (n: number, metric: HeatmapMetric) =>
  `${n.toLocaleString('en-US')} ${UNIT[metric][Math.abs(n) === 1 ? 0 : 1]}`;
export const signed = (d: number) => (d > 0 ? `+${d.toLocaleString('en-US')}` : d.toLocaleString('en-US'));

/** "Section 101", "Box B4", "Custom type 1 C2". */
export const sectionName = (s: { seatType: string; section: string }) =>
  `${(s.seatType.charAt(0).toUpperCase() + s.seatType.slice(1)).replace(/_/g, ' ')} ${s.section}`;

/**
 * A place's hover and accessible text: its count in the event shown, or, for the difference,
 * the change and both counts.
 */
export function placeText(
  name: string,
  metric: HeatmapMetric,
  count: number,
  diff: { compareCount: number; title: string } | null,
): string {
  if (!diff) return `${name}: ${countText(count, metric)}`;
  return `${name}: ${signed(count - diff.compareCount)} ${UNIT[metric][1]} against ${diff.title} (${count.toLocaleString('en-US')} vs ${diff.compareCount.toLocaleString('en-US')})`;
}
