import type { Colors } from '@stadiumcam/contract';

/** WCAG 2's least contrast for body text (1.4.3 AA). */
export const MIN_TEXT_CONTRAST = 4.5;

/**
 * The text/background pairs the attendee app paints (apps/attendee/src/styles.css), by their
 * colour fields: the Colours screen warns when one reads below 4.5:1 (issue 28 point 4).
 */
export const TEXT_PAIRS: { text: keyof Colors['theme']; background: keyof Colors['theme'] }[] = [
  { text: 'mainTextColor', background: 'backgroundColor' },
  { text: 'secondaryTextColor', background: 'backgroundColor' },
  { text: 'activeColor', background: 'backgroundColor' },
  { text: 'primaryTextColor', background: 'primaryColor' },
  { text: 'mainTextColor', background: 'secondaryColor' },
  { text: 'activeTextColor', background: 'activeColor' },
  { text: 'primaryTextColor', background: 'downloadButtonColor' },
  { text: 'primaryTextColor', background: 'emailButtonColor' },
  { text: 'primaryTextColor', background: 'webShareButtonColor' },
];

/** The relative luminance of a `#rgb` or `#rrggbb` colour (WCAG 2), or null if it is not one. */
export function luminance(hex: string): number | null {
  const m = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(hex.trim());
  if (!m) return null;
  const h = m[1].length === 3 ? [...m[1]].map((c) => c + c).join('') : m[1];
  const [r, g, b] = [0, 2, 4].map((i) => {
    const c = parseInt(h.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The contrast ratio of two colours (1 to 21), or null if either is not a hex colour. */
export function contrastRatio(a: string, b: string): number | null {
  const la = luminance(a);
  const lb = luminance(b);
  if (la === null || lb === null) return null;
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

export type ContrastWarning = { text: string; background: string; ratio: number };

/** The app's text/background pairs below 4.5:1 with these colours, with their ratio. */
export function contrastWarnings(colors: Colors): ContrastWarning[] {
  const theme = colors.theme as Record<string, string>;
  return TEXT_PAIRS.flatMap(({ text, background }) => {
    const ratio = contrastRatio(theme[text] ?? '', theme[background] ?? '');
    return ratio !== null && ratio < MIN_TEXT_CONTRAST ? [{ text, background, ratio }] : [];
  });
}
