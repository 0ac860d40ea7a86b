import { createReadStream } from 'node:fs';
import { access, constants, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { FileWriter } from './file-writer.ts';
import type { Readable } from 'node:stream';

/**
 * Keys are relative paths made of safe segments only (`<slugDate>/<id>/raw.jpg`), so nothing
 * can escape a store; a key is served at `/media/<key>`.
 */
const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;

export function isSafeKey(key: string): boolean {
  const parts = key.split('/');
  return parts.length > 0 && parts.every((p) => SEGMENT.test(p) && p !== '..' && !p.includes('..'));
}

export function checkKey(key: string): string {
  if (!isSafeKey(key)) throw new Error(`Unsafe media key: ${key}`);
  return key;
}

export const mediaUrl = (key: string): string => `/media/${key}`;

/** The key of a `/media/...` URL; null for anything else. */
export function keyOfUrl(url: string): string | null {
  if (!url.startsWith('/media/')) return null;
  const key = url.slice('/media/'.length).split('?')[0];
  return isSafeKey(key) ? key : null;
}

const TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
  mp4: 'video/mp4',
  webm: 'video/webm',
  mov: 'video/quicktime',
};
/** The content type a key is served with, by its extension (as @fastify/static does on disk). */
export const contentTypeOf = (key: string): string =>
  TYPES[key.split('.').at(-1)?.toLowerCase() ?? ''] ?? 'application/octet-stream';

export type MediaInfo = { size: number; modified: Date };
/** A folder's entry; `modified` (ms; Infinity when unknown) is looked up only when asked. */
export type MediaEntry = { name: string; folder: boolean; modified: () => Promise<number> };

/**
 * Where media live: a folder on disk, or an S3-compatible bucket (S3_BUCKET). Built once per
 * app (`deps.media`: served at /media; `deps.originals`: camera originals, never served).
 * Keys are checked by `isSafeKey`; a missing key is `null`/`false`, never an error.
 */
export type MediaStore = {
  readonly kind: 'disk' | 's3';
  /** Writes the whole object or nothing (a reader never sees half of it); answers its /media URL. */
  put(key: string, data: Buffer): Promise<string>;
  /** The whole object; throws when it is missing. */
  read(key: string): Promise<Buffer>;
  /** The object as a stream, or null when it is missing. */
  open(key: string): Promise<(MediaInfo & { body: Readable }) | null>;
  stat(key: string): Promise<MediaInfo | null>;
  exists(key: string): Promise<boolean>;
  /** The files and folders directly in `folder` ('' = the store's root); none when it is missing. */
  entries(folder: string): Promise<MediaEntry[]>;
  /** Gives the object a new key (a ban's new URL); the old key answers nothing after. */
  move(from: string, to: string): Promise<void>;
  /** Removes one object; a missing one is fine. */
  remove(key: string): Promise<void>;
  /** Removes everything under `folder/`. */
  removeFolder(folder: string): Promise<void>;
  /** Temp files of interrupted writes, last changed before `olderThan` (ms); answers how many went. */
  removeTemps(olderThan: number): Promise<number>;
  /** Readiness: resolves when the store can be written (throws with the cause otherwise). */
  check(): Promise<void>;
};

const mtimeOf = async (file: string) => (await stat(file).catch(() => null))?.mtime.getTime() ?? Infinity;

/** Today's store: `<root>/<key>`, written atomically (temp file + rename). */
export class DiskMediaStore implements MediaStore {
  readonly kind = 'disk';

  /** `dirMode` for folders it creates (originals: 0700, the owner's only); files are written by `writer`. */
  constructor(
    readonly root: string,
    private readonly writer: FileWriter,
    private readonly dirMode?: number,
  ) {}

  private fileOf(key: string): string {
    return path.join(this.root, ...checkKey(key).split('/'));
  }

  async put(key: string, data: Buffer): Promise<string> {
    await this.writer.write(this.fileOf(key), data, this.dirMode);
    return mediaUrl(key);
  }

  async read(key: string): Promise<Buffer> {
    return readFile(this.fileOf(key));
  }

  async stat(key: string): Promise<MediaInfo | null> {
    const s = await stat(this.fileOf(key)).catch(() => null);
    return s?.isFile() ? { size: s.size, modified: s.mtime } : null;
  }

  async open(key: string): Promise<(MediaInfo & { body: Readable }) | null> {
    const info = await this.stat(key);
    return info && { ...info, body: createReadStream(this.fileOf(key)) };
  }

  async exists(key: string): Promise<boolean> {
    return access(this.fileOf(key)).then(
      () => true,
      () => false,
    );
  }

  async entries(folder: string): Promise<MediaEntry[]> {
    const dir = folder ? this.fileOf(folder) : this.root;
    return (await readdir(dir, { withFileTypes: true }).catch(() => [])).map((e) => ({
      name: e.name,
      folder: e.isDirectory(),
      modified: () => mtimeOf(path.join(dir, e.name)),
    }));
  }

  async move(from: string, to: string): Promise<void> {
    await rename(this.fileOf(from), this.fileOf(to));
  }

  async remove(key: string): Promise<void> {
    await rm(this.fileOf(key), { recursive: true, force: true });
  }

  async removeFolder(folder: string): Promise<void> {
    await this.remove(folder);
  }

  async removeTemps(olderThan: number): Promise<number> {
    let removed = 0;
    const walk = async (dir: string, depth: number): Promise<void> => {
      for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
        const file = path.join(dir, entry.name);
        if (entry.isDirectory() && depth < 3) await walk(file, depth + 1);
        else if (entry.isFile() && entry.name.endsWith('.tmp') && (await mtimeOf(file)) < olderThan) {
          await rm(file, { force: true });
          removed += 1;
        }
      }
    };
    await walk(this.root, 0);
    return removed;
  }

  check(): Promise<void> {
    return access(this.root, constants.W_OK);
  }
}

/**
 * Camera originals, untouched (their Exif, GPS included), live outside the served store:
 * `<dataDir>/originals/<photo id>` on disk, `originals/<photo id>` in a bucket (where /media
 * serves only `media/`); read only through a guarded route (docs/security.md §5).
 */
export const originalsDir = (dataDir: string): string => path.join(dataDir, 'originals');
