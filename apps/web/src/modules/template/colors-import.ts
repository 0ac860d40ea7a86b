import { COLORS_MSG, HEX_COLOR, type Colors } from '@stadiumcam/contract';

export type ColorsImport = { ok: true; colors: Colors; kept: number } | { ok: false; error: string };

const GROUPS = ['theme', 'iconColor', 'emailSettings'] as const;
/** A hex colour as written in a file: with or without its '#'. */
const hex = (v: unknown): string | null => {
  if (typeof v !== 'string') return null;
  const s = v.trim().startsWith('#') ? v.trim() : `#${v.trim()}`;
  return HEX_COLOR.test(s) ? s : null;
};

/**
 * A colours file (spec 2 §5): JSON with a `colors` property shaped like the export; only the
 * known fields holding a 3- or 6-digit hex colour are kept, over the current colours.
 */
export function parseColorsFile(file: { name: string; type: string }, text: string, current: Colors): ColorsImport {
  if (file.type !== 'application/json' && !file.name.toLowerCase().endsWith('.json')) {
    return { ok: false, error: COLORS_MSG.invalidFileType };
  }
  let data: unknown;
  try {
    data = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    return { ok: false, error: COLORS_MSG.invalidJson };
  }
  try {
    if (!data || typeof data !== 'object' || !('colors' in data))
      return { ok: false, error: COLORS_MSG.noColorsProperty };
    const src = data.colors as Record<string, unknown> | null;
    const colors = structuredClone(current);
    let kept = 0;
    if (src && typeof src === 'object') {
      for (const group of GROUPS) {
        const values = src[group];
        if (!values || typeof values !== 'object') continue;
        const target = colors[group] as Record<string, string>;
        for (const [k, v] of Object.entries(values as Record<string, unknown>)) {
          const c = hex(v);
          if (c && Object.hasOwn(target, k)) {
            target[k] = c;
            kept++;
          }
        }
      }
      const slideshow = hex(src.slideshowColor);
      if (slideshow) {
        colors.slideshowColor = slideshow;
        kept++;
      }
    }
    if (!kept) return { ok: false, error: COLORS_MSG.noValidColors };
    return { ok: true, colors, kept };
  } catch {
    return { ok: false, error: COLORS_MSG.importFailed };
  }
}
