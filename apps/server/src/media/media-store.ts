import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';

/**
 * The media store on disk: `<mediaDir>/<key>`, served at `/media/<key>`. Keys are relative
 * paths made of safe segments only, so nothing can escape the store.
 */
const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;

export function isSafeKey(key: string): boolean {
  const parts = key.split('/');
  return parts.length > 0 && parts.every((p) => SEGMENT.test(p) && p !== '..' && !p.includes('..'));
}

function fileOf(mediaDir: string, key: string): string {
  if (!isSafeKey(key)) throw new Error(`Unsafe media key: ${key}`);
  return path.join(mediaDir, ...key.split('/'));
}

export const mediaUrl = (key: string): string => `/media/${key}`;

/** The key of a `/media/...` URL; null for anything else. */
export function keyOfUrl(url: string): string | null {
  if (!url.startsWith('/media/')) return null;
  const key = url.slice('/media/'.length).split('?')[0];
  return isSafeKey(key) ? key : null;
}

/** Writes atomically (temp file + rename) so a reader never sees half a file. */
export async function putMedia(mediaDir: string, key: string, data: Buffer): Promise<string> {
  const file = fileOf(mediaDir, key);
  await mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(tmp, data);
  await rename(tmp, file);
  return mediaUrl(key);
}

export async function readMedia(mediaDir: string, key: string): Promise<Buffer> {
  return readFile(fileOf(mediaDir, key));
}

export async function removeMedia(mediaDir: string, key: string): Promise<void> {
  await rm(fileOf(mediaDir, key), { recursive: true, force: true });
}

/**
 * Camera originals, untouched (their Exif, GPS included), live outside the served store:
 * `<dataDir>/originals/<photo id>`, read only through a guarded route (docs/security.md §5).
 */
export const originalsDir = (dataDir: string): string => path.join(dataDir, 'originals');

export const originalFile = (dataDir: string, id: string): string => fileOf(originalsDir(dataDir), id);

export async function putOriginal(dataDir: string, id: string, data: Buffer): Promise<void> {
  const file = originalFile(dataDir, id);
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(tmp, data);
  await rename(tmp, file);
}

export async function removeOriginal(dataDir: string, id: string): Promise<void> {
  await rm(originalFile(dataDir, id), { force: true });
}
