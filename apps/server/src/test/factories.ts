import type { Face } from '@stadiumcam/contract';
import type { Db } from '../db/client.ts';
import { insertEvent, type EventInsert } from '../modules/events/events.repository.ts';
import { insertSnapshot, type SnapshotInsert } from '../modules/snapshots/snapshots.repository.ts';

/*
 * Factories for the rows tests build: events, photos and faces. Each fills what the test does
 * not care about and takes the rest as overrides; server and e2e tests share them.
 */

/** A slugDate's slug and game date: `stadiumcam-2030-01-01` → `stadiumcam`, `2030-01-01`. */
const slugOf = (slugDate: string) => slugDate.slice(0, -11);
const gameDateOf = (slugDate: string) => slugDate.slice(-10);

/** An event row for `slugDate` (`<slug>-<yyyy-mm-dd>`): Winnipeg time, titled by its slugDate. */
export function eventRow(slugDate: string, over: Partial<EventInsert> = {}): EventInsert {
  return {
    id: slugDate,
    slug: slugOf(slugDate),
    slugDate,
    title: slugDate,
    gameDate: gameDateOf(slugDate),
    timezone: 'America/Winnipeg',
    ...over,
  };
}

/** Inserts an event (see eventRow); an existing one is left as it is. */
export const makeEvent = (db: Db, slugDate: string, over: Partial<EventInsert> = {}) =>
  insertEvent(db, eventRow(slugDate, over));

let photoCount = 0;

/**
 * A photo row: seat 101/A/1 of cam1 by `fan-1`, no shares, no face data. `id` defaults to a
 * fresh one, `slug` to the slugDate's. Derived columns (share counts, face summary) are filled
 * by insertSnapshot.
 */
export function photoRow(over: Partial<SnapshotInsert> & Pick<SnapshotInsert, 'slugDate'>): SnapshotInsert {
  return {
    id: `photo-${++photoCount}`,
    slug: slugOf(over.slugDate),
    userId: 'fan-1',
    camera: 'cam1',
    seatType: 'section',
    section: '101',
    row: 'A',
    seat: '1',
    date: new Date(),
    ...over,
  };
}

/** Inserts a photo through the album's one way in (see photoRow). */
export const makePhoto = (db: Db, over: Partial<SnapshotInsert> & Pick<SnapshotInsert, 'slugDate'>) =>
  insertSnapshot(db, photoRow(over));

type Trait = { Value: boolean; Confidence: number };
const trait = (Value: boolean, Confidence: number): Trait => ({ Value, Confidence });

export type FaceOptions = {
  /** Value and confidence; Female at 99 by default. */
  gender?: [string, number];
  /** Low and high; 20-30 by default. */
  age?: [number, number];
  /** Type (as the image mining writes it, e.g. HAPPY) and confidence; none by default. */
  emotions?: [string, number][];
  /** Traits other than the defaults (a smile, open eyes and mouth, no glasses or beard). */
  traits?: Partial<
    Record<'Smile' | 'Eyeglasses' | 'Sunglasses' | 'Beard' | 'Mustache' | 'EyesOpen' | 'MouthOpen', Trait>
  >;
};

/** One face of a photo's face data (spec 1 §3), confident unless told otherwise. */
export function makeFace(o: FaceOptions = {}): Face {
  const [gender, genderConfidence] = o.gender ?? ['Female', 99];
  const [low, high] = o.age ?? [20, 30];
  return {
    BoundingBox: { Top: 0.1, Left: 0.1, Height: 0.2, Width: 0.2 },
    AgeRange: { Low: low, High: high },
    Smile: trait(true, 95),
    Gender: { Value: gender, Confidence: genderConfidence },
    Eyeglasses: trait(false, 95),
    Sunglasses: trait(false, 95),
    Beard: trait(false, 80),
    Mustache: trait(false, 80),
    EyesOpen: trait(true, 97),
    MouthOpen: trait(true, 70),
    ...o.traits,
    Emotions: (o.emotions ?? []).map(([Type, Confidence]) => ({ Type, Confidence })),
  };
}
