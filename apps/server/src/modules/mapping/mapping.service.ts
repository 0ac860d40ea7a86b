import {
  MAP_FILE_RE,
  MAX_REFERENCE_IMAGE_BYTES,
  ROW_DICT_FILE,
  buildSeatMap,
  normaliseCorners,
  parseMapFile,
  type CameraMapFile,
  type ConfigFileInfo,
  type MapCorner,
  type RegionInput,
  type SeatMap,
  type UploadResult,
  MSG,
} from '@stadiumcam/contract';
import type { z } from 'zod';
import type { RegionInputSchema } from '@stadiumcam/contract';
import type { Deps } from '../../deps.ts';
import { AppError, badRequest, conflict, notFound, unprocessable, ERR } from '../../errors.ts';
import { probeImage } from '../../media/images.ts';
import {
  deleteConfigFile,
  knownCameraKeys,
  listConfigFiles,
  loadStoredSeatMap,
  putConfigFiles,
  putFileAndSeatMap,
  readConfigFile,
  readSeatMapFiles,
  storeSeatMap,
  type NewConfigFile,
} from './mapping.repository.ts';

/** Download path of a stored file under the mapping root. */
export const CONFIG_ROOT = '/api/config/stadiumcam/';

export async function loadSeatMap(deps: Deps): Promise<void> {
  deps.seatMap.current = (await loadStoredSeatMap(deps.db)) ?? deps.seatMap.current;
}

export type UploadedFiles = { fields: Record<string, string>; files: { name: string; data: Buffer }[] };

/** Cameras hosts have announced: recorded ones and those connected right now. */
async function knownCameras(deps: Deps): Promise<Set<string>> {
  const keys = await knownCameraKeys(deps.db);
  for (const s of deps.cameras.states()) keys.add(s.camera);
  return keys;
}

const isSeatMapFile = (name: string) => name === ROW_DICT_FILE || MAP_FILE_RE.test(name);
const utf8 = (b: Buffer) => b.toString('utf8');

/** The files the seat map is built from, with `replace` standing in for stored ones of the same name. */
async function candidateFiles(deps: Deps, replace: Map<string, Buffer>) {
  const stored = new Map((await readSeatMapFiles(deps.db)).map((f) => [f.name, f.data]));
  for (const [name, data] of replace) stored.set(name, data);
  const rowDict = stored.get(ROW_DICT_FILE);
  return {
    rowDict: rowDict ? utf8(rowDict) : null,
    maps: [...stored].filter(([n]) => n !== ROW_DICT_FILE).map(([name, data]) => ({ name, text: utf8(data) })),
  };
}

/**
 * Checks each uploaded file alone, then together with the stored ones (rows of the map files in
 * the row dictionary, cameras that hosts have); stores the files that pass. Nothing else changes
 * until 'Update Config' reloads the seat map.
 */
export async function uploadConfigFiles(deps: Deps, { files }: UploadedFiles, username: string): Promise<UploadResult> {
  const errors = new Map<string, string>();
  const batch = new Map<string, Buffer>();
  for (const f of files) {
    if (!isSeatMapFile(f.name)) errors.set(f.name, `Only ${ROW_DICT_FILE} and cam<N>.json files are accepted`);
    else if (f.data.includes(0)) errors.set(f.name, 'The file is not text');
    else batch.set(f.name, f.data);
  }
  const built = buildSeatMap(await candidateFiles(deps, batch), await knownCameras(deps), new Date().toISOString());
  if (!built.ok) {
    for (const e of built.errors) {
      // A missing row dictionary is reload's concern: map files may come before it.
      if (e.name === ROW_DICT_FILE && !batch.has(ROW_DICT_FILE)) continue;
      // The first reason counts: a bad dictionary also makes every map's rows unknown.
      const [name, error] = batch.has(e.name) ? [e.name, e.error] : [ROW_DICT_FILE, `${e.name}: ${e.error}`];
      if (batch.has(name) && !errors.has(name)) errors.set(name, error);
    }
  }
  const good: NewConfigFile[] = [...batch]
    .filter(([name]) => !errors.has(name))
    .map(([name, data]) => ({ name, data, uploadedBy: username }));
  await putConfigFiles(deps.db, good);
  deps.log.info(
    { user: username, stored: good.map((f) => f.name), refused: [...errors.keys()] },
    'config files uploaded',
  );
  return {
    files: files.map((f) => {
      const error = errors.get(f.name);
      return error ? { name: f.name, success: false, error } : { name: f.name, success: true };
    }),
  };
}

export async function listFiles(deps: Deps): Promise<{ files: ConfigFileInfo[] }> {
  return {
    files: (await listConfigFiles(deps.db)).map((f) => ({
      name: f.name,
      size: f.size,
      uploadedAt: f.uploadedAt.toISOString(),
      uploadedBy: f.uploadedBy,
      url: `${CONFIG_ROOT}${f.name}`,
    })),
  };
}

export async function removeFile(deps: Deps, name: string, username: string): Promise<{ ok: true }> {
  if (!(await deleteConfigFile(deps.db, name))) throw notFound(ERR.mapping.noFile(name));
  deps.log.info({ user: username, name }, 'config file deleted');
  return { ok: true };
}

function publish(deps: Deps, model: SeatMap): void {
  deps.seatMap.current = model;
  // The other instances read the stored model again (DESIGN §13).
  deps.cluster.publish('seat map', null);
  deps.realtime.consoles.emit('seat map updated', { loadedAt: model.loadedAt ?? '' });
}

/** 'Update Config': the seat map from every stored file, or a 422 listing what is wrong (nothing changes). */
export async function reloadSeatMap(deps: Deps, username: string) {
  const built = buildSeatMap(await candidateFiles(deps, new Map()), await knownCameras(deps), new Date().toISOString());
  if (!built.ok) {
    const problems = built.errors.map((e) => MSG.mapping.fileProblem(e.name, e.error)).join('; ');
    const invalid = ERR.mapping.seatMapInvalid(problems);
    throw new AppError(422, { ...invalid, text: invalid.text.slice(0, 2000) }, { details: built.errors });
  }
  await storeSeatMap(deps.db, built.seatMap);
  publish(deps, built.seatMap);
  deps.log.info({ user: username, cameras: built.seatMap.cameras.length }, 'seat map reloaded');
  return {
    ok: true as const,
    loadedAt: built.seatMap.loadedAt!,
    cameras: built.seatMap.cameras.length,
    rows: built.seatMap.rows.length,
  };
}

const CONTENT_TYPES: [RegExp, string][] = [
  [/\.json$/, 'application/json; charset=utf-8'],
  [/\.txt$/, 'text/plain; charset=utf-8'],
  [/\.jpg$/, 'image/jpeg'],
];

export async function downloadFile(deps: Deps, name: string): Promise<{ data: Buffer; type: string }> {
  const row = await readConfigFile(deps.db, name);
  if (!row) throw notFound(ERR.mapping.noFile(name));
  const type = CONTENT_TYPES.find(([re]) => re.test(name))?.[1] ?? 'application/octet-stream';
  return { data: row.data, type };
}

/* ---------- The mapping tool: one camera's map file, edited and made live at once ---------- */

const mapFileName = (camera: string) => `${camera}.json`;

function cameraNumber(camera: string): number {
  const m = /^cam([1-9]\d{0,2})$/.exec(camera);
  if (!m) throw badRequest(ERR.mapping.mappedCameraName);
  return Number(m[1]);
}

async function readMap(deps: Deps, camera: string): Promise<CameraMapFile | null> {
  const row = await readConfigFile(deps.db, mapFileName(camera));
  if (!row) return null;
  const parsed = parseMapFile(mapFileName(camera), utf8(row.data));
  if (!parsed.ok) throw unprocessable(ERR.mapping.fileProblem(mapFileName(camera), parsed.error));
  return parsed.value;
}

/** Stores the changed map file and makes it the running seat map, if the whole map still builds. */
async function saveMap(deps: Deps, camera: string, file: CameraMapFile, username: string): Promise<SeatMap> {
  file.section_count = file.sections.length;
  const data = Buffer.from(JSON.stringify(file, null, 2));
  const name = mapFileName(camera);
  const built = buildSeatMap(
    await candidateFiles(deps, new Map([[name, data]])),
    await knownCameras(deps),
    new Date().toISOString(),
  );
  if (!built.ok)
    throw unprocessable(
      ERR.mapping.mapFileInvalid(built.errors.map((e) => MSG.mapping.fileProblem(e.name, e.error)).join('; ')),
    );
  await putFileAndSeatMap(deps.db, { name, data, uploadedBy: username }, built.seatMap);
  publish(deps, built.seatMap);
  return built.seatMap;
}

type Region = z.output<typeof RegionInputSchema>;

/** The corners a region type keeps (spec 3 §4): the others follow the editable ones. */
function cornersOf(r: Region): MapCorner[] {
  const at = (p: MapCorner['position']) => r.corners.find((c) => c.position === p);
  const tl = at('top_left');
  const br = at('bottom_right');
  const tr = at('top_right');
  if (!tl || !br || !tr || !at('bottom_left')) throw badRequest(ERR.mapping.regionCorners);
  const copy = (c: Omit<MapCorner, 'position'>, position: MapCorner['position']): MapCorner => ({ ...c, position });
  if (r.regionType === 'singleSeat') return [copy(tl, 'top_left'), copy(tl, 'bottom_right')];
  if (r.regionType === 'singleRow')
    return [copy(tl, 'top_left'), copy(tr, 'top_right'), copy(tl, 'bottom_left'), copy(tr, 'bottom_right')];
  const n = normaliseCorners([copy(tl, 'top_left'), copy(br, 'bottom_right')]);
  return [
    copy(n.topLeft, 'top_left'),
    copy(n.topRight, 'top_right'),
    copy(n.bottomLeft, 'bottom_left'),
    copy(n.bottomRight, 'bottom_right'),
  ];
}

async function mapWithReference(deps: Deps, camera: string): Promise<CameraMapFile> {
  cameraNumber(camera);
  const file = await readMap(deps, camera);
  if (!file) throw unprocessable(ERR.mapping.referenceFirst(camera));
  return file;
}

function sameCorners(a: MapCorner[], b: MapCorner[]): boolean {
  return JSON.stringify(normaliseCorners(a)) === JSON.stringify(normaliseCorners(b));
}

export async function addRegion(deps: Deps, camera: string, input: RegionInput, username: string): Promise<SeatMap> {
  const r = input as Region;
  const file = await mapWithReference(deps, camera);
  const corners = cornersOf(r);
  let section = file.sections.find((s) => s.name === r.name && s.type === r.type);
  if (!section) {
    section = { name: r.name, type: r.type, regions: [] };
    file.sections.push(section);
  }
  if (section.regions.some((x) => sameCorners(x.corners, corners)))
    throw unprocessable(ERR.mapping.regionExists(r.name));
  section.regions.push({ corners, zoom_factor: r.zoomFactor, angle: r.angle, region_type: r.regionType });
  deps.log.info({ user: username, camera, section: r.name, type: r.type }, 'region added');
  return saveMap(deps, camera, file, username);
}

type RegionRef = { section: string; type: string; index: number };

function findRegion(file: CameraMapFile, ref: RegionRef) {
  const section = file.sections.find((s) => s.name === ref.section && s.type === ref.type);
  if (!section || !section.regions[ref.index]) throw notFound(ERR.mapping.regionNotFound);
  return section;
}

export async function updateRegion(
  deps: Deps,
  camera: string,
  ref: RegionRef,
  input: RegionInput,
  username: string,
): Promise<SeatMap> {
  const r = input as Region;
  const file = await mapWithReference(deps, camera);
  const section = findRegion(file, ref);
  const corners = cornersOf(r);
  if (section.regions.some((x, i) => i !== ref.index && sameCorners(x.corners, corners)))
    throw unprocessable(ERR.mapping.regionExists(ref.section));
  const region = { corners, zoom_factor: r.zoomFactor, angle: r.angle, region_type: r.regionType };
  if (r.name === ref.section && r.type === ref.type) {
    section.regions[ref.index] = region;
  } else {
    // Renamed: the region moves to its new section.
    section.regions.splice(ref.index, 1);
    let target = file.sections.find((s) => s.name === r.name && s.type === r.type);
    if (!target) {
      target = { name: r.name, type: r.type, regions: [] };
      file.sections.push(target);
    }
    if (target.regions.some((x) => sameCorners(x.corners, corners)))
      throw unprocessable(ERR.mapping.regionExists(r.name));
    target.regions.push(region);
  }
  file.sections = file.sections.filter((s) => s.regions.length);
  deps.log.info({ user: username, camera, ...ref }, 'region updated');
  return saveMap(deps, camera, file, username);
}

export async function deleteRegion(deps: Deps, camera: string, ref: RegionRef, username: string): Promise<SeatMap> {
  const file = await mapWithReference(deps, camera);
  const section = findRegion(file, ref);
  section.regions.splice(ref.index, 1);
  file.sections = file.sections.filter((s) => s.regions.length);
  deps.log.info({ user: username, camera, ...ref }, 'region deleted');
  return saveMap(deps, camera, file, username);
}

export async function setReference(
  deps: Deps,
  camera: string,
  ref: { pan: number; tilt: number; zoom: number },
  username: string,
): Promise<SeatMap> {
  const number = cameraNumber(camera);
  if (!(await knownCameras(deps)).has(camera)) throw notFound(ERR.cameras.unknownCamera(camera));
  const file = (await readMap(deps, camera)) ?? {
    camera: number,
    ptu_model: '',
    operators: [],
    sections: [],
    ref_point: ref,
  };
  file.ref_point = ref;
  deps.log.info({ user: username, camera, ref }, 'reference position set');
  return saveMap(deps, camera, file, username);
}

/** A reference image: a real JPEG within the byte and pixel limits, stored as shots/<cam>.jpg. */
export async function storeReferenceImage(deps: Deps, camera: string, jpeg: Buffer, username: string): Promise<void> {
  cameraNumber(camera);
  if (jpeg.length > MAX_REFERENCE_IMAGE_BYTES) throw new AppError(413, ERR.mapping.referenceTooLarge);
  const { format } = await probeImage(jpeg);
  if (format !== 'jpeg') throw new AppError(415, ERR.mapping.referenceNotJpeg);
  await putConfigFiles(deps.db, [{ name: `shots/${camera}.jpg`, data: jpeg, uploadedBy: username }]);
  deps.log.info({ user: username, camera }, 'reference image set');
}

/** POST configs/JSON and configs/JPG: `camidx` names the camera, `file` is the map file or the image. */
export async function uploadCameraFile(
  deps: Deps,
  { fields, files }: UploadedFiles,
  kind: 'json' | 'jpg',
  username: string,
): Promise<{ ok: true }> {
  const idx = Number(fields.camidx);
  if (!Number.isInteger(idx) || idx < 1 || idx > 999) throw badRequest(ERR.mapping.camidxInvalid);
  const camera = `cam${idx}`;
  const data = files[0].data;
  if (kind === 'jpg') {
    await storeReferenceImage(deps, camera, data, username);
    return { ok: true };
  }
  const parsed = parseMapFile(mapFileName(camera), utf8(data));
  if (!parsed.ok) throw unprocessable(ERR.mapping.mapFileInvalid(parsed.error));
  await saveMap(deps, camera, parsed.value, username);
  return { ok: true };
}

/** The mapping tool's 'set reference image': a still from the camera now becomes shots/<cam>.jpg. */
export async function referenceImageFromCamera(deps: Deps, camera: string, username: string): Promise<{ ok: true }> {
  const host = deps.cameras.hostOf(camera);
  if ('error' in host) throw conflict({ code: host.code, text: host.error });
  let answer;
  try {
    answer = (await host.ask('shot', { camera }, deps.config.hostAckTimeoutMs)) as
      { ok: true; image: unknown } | { ok: false; error: string };
  } catch {
    throw conflict(ERR.cameras.hostNoAnswer);
  }
  if (!answer.ok) throw conflict(ERR.cameras.hostRefused(answer.error));
  const image = answer.image;
  await storeReferenceImage(deps, camera, Buffer.isBuffer(image) ? image : Buffer.from(image as ArrayBuffer), username);
  return { ok: true };
}
