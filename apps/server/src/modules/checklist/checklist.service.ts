import {
  ATTENDEE_TEXTS,
  MSG,
  coverageLists,
  coverageOf,
  partFromEvent,
  readEventConfig,
  type CheckState,
  type Checklist,
  type ChecklistItem,
  type ChecklistKey,
  type Event,
  type TemplatePartName,
} from '@stadiumcam/contract';
import type { Deps } from '../../deps.ts';
import { AppError, ERR, notFound, unprocessable } from '../../errors.ts';
import { getEventBySlugDate } from '../events/index.ts';
import { SERVER_PARTS, checkPart } from '../template/index.ts';
import { camerasWithPhotoSince } from './checklist.repository.ts';

/** A camera that is on but sent no frame for this long is not streaming (the monitor's "No signal"). */
export const FRAME_STALE_MS = 15_000;
/** Each camera should have taken a photo of the event within this window. */
export const PHOTO_WINDOW_MS = 60 * 60_000;

/** The console screen that fixes each item. */
const LINKS: Record<ChecklistKey, string> = {
  cameras: '/monitor',
  coverage: '/config/mapping',
  graphics: '/template/overlays',
  share: '/template/share',
  geofence: '/template/geofence',
  language: '/template/Languages',
  trivia: '/template/trivia',
  photos: '/monitor',
};

const item = (key: ChecklistKey, state: CheckState, reason: string, link = LINKS[key]): ChecklistItem => ({
  key,
  label: MSG.checklist[key],
  state,
  reason,
  link,
});

/** The first broken rule of a part as its screen's save would answer it, or null. */
async function partProblem(deps: Deps, name: TemplatePartName, event: Event): Promise<string | null> {
  const part = SERVER_PARTS.find((p) => p.name === name);
  if (!part) return null;
  try {
    await checkPart(deps, part, partFromEvent(name, event));
    return null;
  } catch (err) {
    // A rule with a heading (the geofence's) names what is wrong in its details.
    const detail = err instanceof AppError ? err.details?.find((d) => typeof d === 'string') : undefined;
    return typeof detail === 'string' ? detail : err instanceof Error ? err.message : String(err);
  }
}

const names = (list: string[]) => list.join(', ');

function camerasItem(deps: Deps, now: number): ChecklistItem {
  const states = deps.cameras.states();
  if (!states.length) return item('cameras', 'fail', MSG.checklist.noCameras);
  const off = states.filter((s) => s.status !== 'on').map((s) => s.camera);
  if (off.length) return item('cameras', 'fail', MSG.checklist.camerasOff(names(off)));
  const stale = states
    .filter((s) => now - (deps.cameras.lastFrameAt(s.camera) ?? 0) > FRAME_STALE_MS)
    .map((s) => s.camera);
  if (stale.length) return item('cameras', 'fail', MSG.checklist.camerasNoSignal(names(stale)));
  return item('cameras', 'pass', MSG.checklist.camerasStreaming(states.length));
}

/** Gaps as the Mapping config page's coverage view counts them. */
function coverageItem(deps: Deps): ChecklistItem {
  const map = deps.seatMap.current;
  const sections = coverageOf(map);
  if (!map.cameras.length || !sections.length) return item('coverage', 'fail', MSG.checklist.noSeatMap);
  const { gaps, gapSeats } = coverageLists(sections);
  if (gapSeats)
    return item('coverage', 'warn', MSG.checklist.coverageGaps(gapSeats, names(gaps.map((g) => g.section))));
  return item('coverage', 'pass', MSG.checklist.coverageFull(sections.length));
}

async function graphicsItem(deps: Deps, event: Event): Promise<ChecklistItem> {
  const overlays = await partProblem(deps, 'overlays', event);
  if (overlays) return item('graphics', 'fail', overlays);
  const images = await partProblem(deps, 'images', event);
  if (images) return item('graphics', 'fail', images, '/template/graphics');
  const enabled = readEventConfig(event).config.overlays.filter((o) => !o.deleted && !o.disabled).length;
  if (!enabled) return item('graphics', 'warn', MSG.checklist.noOverlay);
  return item('graphics', 'pass', MSG.checklist.graphicsOk(enabled));
}

async function shareItem(deps: Deps, event: Event): Promise<ChecklistItem> {
  const problem = await partProblem(deps, 'share', event);
  if (problem) return item('share', 'fail', problem);
  const offered = readEventConfig(event).config.share.filter((o) => o.enabled);
  return item('share', 'pass', MSG.checklist.shareOk(names(offered.map((o) => o.platform))));
}

async function geofenceItem(deps: Deps, event: Event): Promise<ChecklistItem> {
  const g = readEventConfig(event).config.geofence;
  if (g.enabled) {
    const problem = await partProblem(deps, 'geofence', event);
    if (problem) return item('geofence', 'fail', MSG.checklist.geofenceInvalid(problem));
    return item('geofence', 'pass', MSG.checklist.geofenceOn(g.radius, g.address.trim()));
  }
  // Off with an address typed in = someone set it up and switched it off; never set = a warning.
  if (g.address.trim()) return item('geofence', 'pass', MSG.checklist.geofenceOff);
  return item('geofence', 'warn', MSG.checklist.geofenceNeverSet);
}

async function languageItem(deps: Deps, event: Event): Promise<ChecklistItem> {
  const problem = await partProblem(deps, 'languages', event);
  if (problem) return item('language', 'fail', problem);
  const { languages, defaultLanguage } = readEventConfig(event).config;
  const empty = Object.keys(ATTENDEE_TEXTS).filter((key) => !languages[key]?.texts[defaultLanguage]?.trim());
  if (empty.length)
    return item('language', 'fail', MSG.checklist.languageEmpty(defaultLanguage, empty.length, empty[0]));
  return item('language', 'pass', MSG.checklist.languageOk(defaultLanguage));
}

function triviaItem(event: Event): ChecklistItem {
  const { triviaEnabled, triviaQuestions, defaultLanguage } = readEventConfig(event).config;
  if (!triviaEnabled) return item('trivia', 'pass', MSG.checklist.triviaOff);
  const n = triviaQuestions[defaultLanguage]?.length ?? 0;
  if (!n) return item('trivia', 'fail', MSG.checklist.triviaNoQuestions(defaultLanguage));
  return item('trivia', 'pass', MSG.checklist.triviaOn(n));
}

async function photosItem(deps: Deps, slugDate: string, now: number): Promise<ChecklistItem> {
  const cameras = deps.cameras.states().map((s) => s.camera);
  if (!cameras.length) return item('photos', 'fail', MSG.checklist.noCameras);
  const took = new Set(await camerasWithPhotoSince(deps.db, slugDate, cameras, new Date(now - PHOTO_WINDOW_MS)));
  const missing = cameras.filter((c) => !took.has(c));
  // A warning: before the doors open no fan has been photographed yet; a MagicShot proves the path.
  if (missing.length) return item('photos', 'warn', MSG.checklist.photosMissing(names(missing)));
  return item('photos', 'pass', MSG.checklist.photosOk(cameras.length));
}

/**
 * The pre-live checklist of a dated event (issue 32 §2), computed from the venue's state now.
 * Reads only. 404 for an unknown event; 422 for the master template (it never goes live).
 * Exported for the audit log, which records the failing items when an event goes live.
 */
export async function computeChecklist(deps: Deps, slugDate: string): Promise<Checklist> {
  const event = await getEventBySlugDate(deps, slugDate);
  if (!event) throw notFound(ERR.events.eventNotFound);
  if (event.template) throw unprocessable(ERR.checklist.templateRefused);
  const now = Date.now();
  const items = [
    camerasItem(deps, now),
    coverageItem(deps),
    await graphicsItem(deps, event),
    await shareItem(deps, event),
    await geofenceItem(deps, event),
    await languageItem(deps, event),
    triviaItem(event),
    await photosItem(deps, event.slugDate, now),
  ];
  return { slugDate: event.slugDate, checkedAt: new Date(now).toISOString(), items };
}

/**
 * The failing items as 'label: reason', for the audit entry of a go-live. Never throws: a
 * checklist that cannot be computed is recorded as such, and the switch goes on.
 */
export const preLiveFailures =
  (deps: Deps) =>
  async (slugDate: string): Promise<string[]> => {
    try {
      const { items } = await computeChecklist(deps, slugDate);
      return items.filter((i) => i.state === 'fail').map((i) => `${i.label}: ${i.reason}`);
    } catch (err) {
      return [`checklist not computed: ${(err as Error).message}`];
    }
  };
