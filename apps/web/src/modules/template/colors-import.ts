import { COLORS_MSG, HEX_COLOR, type Colors } from '@stadiumcam/contract';

export type ColorsImport = { ok: true; colors: Colors; kept: number } | { ok: false; error: string };

const GROUPS = ['theme', 'iconColor', 'emailSettings'] as const;
/** A colours export is about 2 KB; a file above this is not read. */
export const COLORS_FILE_MAX_BYTES = 1024 * 1024;
const isJsonFile = (file: { name: string; type: string }) =>
  file.type === 'application/json' || file.name.toLowerCase().endsWith('.json');
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
  if (!isJsonFile(file)) return { ok: false, error: COLORS_MSG.invalidFileType };
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

/**
 * Reads a chosen file, then parses it. A failure other than the four texts of spec 2 §5 (a file
 * too large to be a colours file, a file the browser cannot read) is 'Failed to Import Colors.'.
 */
export async function importColorsFile(file: File, current: Colors): Promise<ColorsImport> {
  if (!isJsonFile(file)) return { ok: false, error: COLORS_MSG.invalidFileType };
  if (file.size > COLORS_FILE_MAX_BYTES) return { ok: false, error: COLORS_MSG.importFailed };
  let text: string;
  try {
    text = await file.text();
  } catch {
    return { ok: false, error: COLORS_MSG.importFailed };
  }
  return parseColorsFile(file, text, current);
}
