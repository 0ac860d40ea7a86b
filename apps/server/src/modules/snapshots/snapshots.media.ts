import { createRequire } from 'node:module';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Archiver } from 'archiver';
import { isSafeKey, keyOfUrl, type MediaStore } from '../../media/media-store.ts';
import type { SnapshotRow } from './snapshots.repository.ts';

/** The media columns of a photo, in the order the files are named. */
export const URI_COLUMNS = ['rawCroppedUri', 'smallUri', 'thumbUri', 'sharedUri'] as const;
type UriColumn = (typeof URI_COLUMNS)[number];

/**
 * A ban must break every old link to the photo (spec 1 §8: "Banning a photo will change the
 * URL of that photo"): each existing file moves to a new random name in its folder, and
 * `save` records the new URIs (a URI whose file is missing is left as it is). When a move,
 * the clean-up or `save` fails, the files move back, so the row never names a missing file.
 */
export async function moveToNewUrls<T>(
  media: MediaStore,
  row: SnapshotRow,
  save: (uris: Partial<Record<UriColumn, string>>) => Promise<T>,
): Promise<T> {
  const moved = new Map<string, string>();
  const done: [from: string, to: string][] = [];
  const out: Partial<Record<UriColumn, string>> = {};
  try {
    for (const column of URI_COLUMNS) {
      const url = row[column];
      if (!url) continue;
      let next = moved.get(url);
      if (!next) {
        const key = keyOfUrl(url);
        if (!key || !(await media.exists(key))) continue;
        const dir = key.includes('/') ? key.slice(0, key.lastIndexOf('/') + 1) : '';
        const base = key.slice(dir.length).replace(/^[0-9a-f]{16}-/, '');
        const newKey = `${dir}${randomBytes(8).toString('hex')}-${base}`;
        if (!isSafeKey(newKey)) continue;
        await media.move(key, newKey);
        done.push([key, newKey]);
        next = `/media/${newKey}`;
        moved.set(url, next);
      }
      out[column] = next;
    }
    // Anything else in the photo's folder (a composite of an overlay chosen earlier) goes:
    // after a ban no rendition answers at a link that was ever handed out.
    const kept = new Set([...moved.values()].map((u) => keyOfUrl(u)));
    for (const dir of photoDirs(row))
      for (const e of await media.entries(dir)) {
        const key = `${dir}/${e.name}`;
        if (kept.has(key) || !isSafeKey(key)) continue;
        await (e.folder ? media.removeFolder(key) : media.remove(key));
      }
    return await save(out);
  } catch (err) {
    // Best effort: a store that went down mid-way may keep a file at its new name (the row
    // then names a missing file, the one case left); the ban answers the error.
    for (const [from, to] of done.reverse()) await media.move(to, from).catch(() => undefined);
    throw err;
  }
}

/** A photo's own folders (`<slugDate>/<id>`): every rendition it ever had lives there. */
function photoDirs(row: SnapshotRow): string[] {
  const dirs = new Set<string>();
  for (const column of URI_COLUMNS) {
    const key = keyOfUrl(row[column]);
    const dir = key ? path.posix.dirname(key) : '';
    // Only a folder of the photo itself, never an event's folder or the store's root.
    if (dir.endsWith(`/${row.id}`)) dirs.add(dir);
  }
  return [...dirs];
}

/** Removes every file of the photos: the named renditions and their folders (old composites too). */
export async function removeFiles(media: MediaStore, rows: SnapshotRow[]): Promise<void> {
  for (const row of rows) {
    for (const column of URI_COLUMNS) {
      const key = keyOfUrl(row[column]);
      if (key) await media.remove(key);
    }
    for (const dir of photoDirs(row)) await media.removeFolder(dir);
  }
}

const PHOTO_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const SWEEP_BATCH = 500;

/**
 * Files a crash left without a row (issue 16 §11, docs/security.md §11): an ingest writes the
 * photo's folder `<slugDate>/<id>/` first and records the row after, so a kill -9 in between
 * leaves a folder nobody can moderate, ban or delete; a kill during a write leaves a `.tmp`
 * (on disk; an S3 put is all or nothing). Removes every photo folder whose id has no row and
 * every `.tmp` file, both last changed before `olderThan` (writes still in flight, on this or
 * another instance, are newer). `known` answers which of the ids have a row. Answers what it removed.
 */
export async function sweepOrphanMedia(
  media: MediaStore,
  olderThan: Date,
  known: (ids: string[]) => Promise<Set<string>>,
): Promise<{ folders: number; temps: number }> {
  const out = { folders: 0, temps: 0 };
  const cutoff = olderThan.getTime();
  for (const event of await media.entries('')) {
    if (!event.folder || !isSafeKey(event.name)) continue;
    const ids = (await media.entries(event.name)).filter((e) => e.folder && PHOTO_ID.test(e.name));
    for (let i = 0; i < ids.length; i += SWEEP_BATCH) {
      const batch = ids.slice(i, i + SWEEP_BATCH);
      const rows = await known(batch.map((e) => e.name));
      for (const e of batch) {
        if (rows.has(e.name) || (await e.modified()) >= cutoff) continue;
        await media.removeFolder(`${event.name}/${e.name}`);
        out.folders += 1;
      }
    }
  }
  // Temp files last: removing one changes its folder's time, which would spare the folder.
  out.temps = await media.removeTemps(cutoff);
  return out;
}

/** Camera originals whose photo has no row (same cut-off and answer as sweepOrphanMedia). */
export async function sweepOrphanOriginals(
  originals: MediaStore,
  olderThan: Date,
  known: (ids: string[]) => Promise<Set<string>>,
): Promise<number> {
  const names = (await originals.entries('')).filter((e) => !e.folder && isSafeKey(e.name));
  let removed = 0;
  for (let i = 0; i < names.length; i += SWEEP_BATCH) {
    const batch = names.slice(i, i + SWEEP_BATCH);
    const rows = await known(batch.map((e) => e.name).filter((n) => PHOTO_ID.test(n)));
    for (const e of batch) {
      if (rows.has(e.name) || (await e.modified()) >= olderThan.getTime()) continue;
      await originals.remove(e.name);
      removed += 1;
    }
  }
  return removed;
}

/** The camera's original of a photo, or its served raw for photos stored before originals were kept. */
export async function originalOrRaw(
  stores: { media: MediaStore; originals: MediaStore },
  row: SnapshotRow,
): Promise<Readable | null> {
  const original = await stores.originals.open(row.id);
  if (original) return original.body;
  const raw = keyOfUrl(row.rawCroppedUri);
  return raw ? ((await stores.media.open(raw))?.body ?? null) : null;
}

type ArchiverModule = {
  create: (format: string, options: Record<string, unknown>) => Archiver;
  registerFormat: (name: string, module: unknown) => void;
  isRegisteredFormat: (name: string) => boolean;
};
// archiver 7 is CommonJS with a registry of formats; the encryption plugin registers once per process.
const require = createRequire(import.meta.url);
const archiver = require('archiver') as ArchiverModule;
if (!archiver.isRegisteredFormat('zip-encrypted'))
  archiver.registerFormat('zip-encrypted', require('archiver-zip-encrypted'));

/** JPEG and MP4 are compressed already: entries are stored, not deflated. */
export const plainZip = (): Archiver => archiver.create('zip', { store: true });
export const encryptedZip = (password: string): Archiver =>
  archiver.create('zip-encrypted', { zlib: { level: 0 }, encryptionMethod: 'aes256', password });

/** Adds one media file; a missing file is skipped (answers false). */
export async function appendMedia(zip: Archiver, media: MediaStore, url: string, name: string): Promise<boolean> {
  const key = keyOfUrl(url);
  const info = key ? await media.stat(key) : null;
  if (!key || !info) return false;
  // Opened when the archive reaches the entry: no descriptor or S3 request per queued photo.
  const lazy = async function* () {
    const found = await media.open(key);
    if (found) yield* found.body;
  };
  zip.append(Readable.from(lazy(), { objectMode: false }), { name, date: info.modified });
  return true;
}

/** Waits until the archive has written all but `backlog` of the entries queued so far. */
export function entriesWritten(zip: Archiver): (queued: number, backlog: number) => Promise<void> {
  let written = 0;
  const waiters: { target: number; done: () => void }[] = [];
  zip.on('entry', () => {
    written += 1;
    for (const w of waiters.splice(0))
      if (written >= w.target) w.done();
      else waiters.push(w);
  });
  // A failed or aborted archive releases every waiter; the caller then stops queueing.
  const releaseAll = () => {
    written = Number.POSITIVE_INFINITY;
    for (const w of waiters.splice(0)) w.done();
  };
  zip.on('error', releaseAll);
  zip.on('close', releaseAll);
  return (queued, backlog) =>
    written >= queued - backlog
      ? Promise.resolve()
      : new Promise<void>((done) => waiters.push({ target: queued - backlog, done }));
}

export const extensionOf = (url: string) => path.extname(url.split('?')[0]) || '.jpg';
