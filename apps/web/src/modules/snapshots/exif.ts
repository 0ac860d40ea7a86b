import exifr from 'exifr';
import { EXIF_READ_BYTES } from '@stadiumcam/contract';

export type ExifEntry = { key: string; value: string };

function show(value: unknown): string {
  if (value instanceof Date) return value.toISOString().replace('T', ' ').slice(0, 19);
  if (value instanceof Uint8Array || value instanceof ArrayBuffer) return `${value.byteLength} bytes`;
  if (Array.isArray(value)) return value.map(show).join(', ');
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : value.toFixed(4);
  if (value && typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/**
 * Reads the Exif of a photo from its first 100000 bytes only (spec 1 §7): a Range request,
 * and a slice in case the server sent the whole file anyway.
 */
export async function readExif(url: string): Promise<ExifEntry[]> {
  const res = await fetch(url, { headers: { Range: `bytes=0-${EXIF_READ_BYTES - 1}` }, credentials: 'same-origin' });
  if (!res.ok) throw new Error(`Exif fetch failed (${res.status})`);
  const head = (await res.arrayBuffer()).slice(0, EXIF_READ_BYTES);
  const tags = (await exifr.parse(head, { tiff: true, exif: true, gps: true, ifd1: false, xmp: false })) as
    Record<string, unknown> | undefined;
  if (!tags) return [];
  return Object.entries(tags)
    .filter(([, v]) => v !== undefined && v !== null && v !== '')
    .map(([key, value]) => ({ key, value: show(value) }));
}
