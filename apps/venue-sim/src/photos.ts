import sharp from 'sharp';
import type { UploadFace } from '@stadiumcam/contract';
import type { Rng } from './rng.ts';

/*
 * Attendee photos: a group of simple figures in the stands, with face data (Rekognition's
 * shape) whose bounding boxes match the drawn faces, so the album's vision filters and the
 * lightbox's face card have real data. A small pool is rendered once and reused.
 */
export const PHOTO_W = 1280;
export const PHOTO_H = 720;
const POOL_SIZE = 12;
const EMOTIONS = ['HAPPY', 'CALM', 'SURPRISED', 'CONFUSED', 'SAD', 'ANGRY', 'FEAR', 'DISGUSTED'] as const;
const SKIN = ['#f1c27d', '#e0ac69', '#c68642', '#8d5524', '#ffdbac'];
const SHIRTS = ['#e03131', '#1971c2', '#f8f9fa', '#fcc419', '#2f9e44', '#212529', '#e8590c'];

export type Photo = { jpeg: Buffer; faces: UploadFace[] };

const round = (n: number, d = 4) => Math.round(n * 10 ** d) / 10 ** d;

function trait(rng: Rng, pTrue: number) {
  const value = rng.chance(pTrue);
  return { Value: value, Confidence: round(55 + rng.next() * 45, 2) };
}

function face(rng: Rng, box: { Top: number; Left: number; Width: number; Height: number }): UploadFace {
  const low = rng.int(3, 70);
  const main = rng.pick(EMOTIONS.slice(0, 5));
  return {
    BoundingBox: { Top: round(box.Top), Left: round(box.Left), Width: round(box.Width), Height: round(box.Height) },
    AgeRange: { Low: low, High: low + rng.int(3, 12) },
    Smile: trait(rng, main === 'HAPPY' ? 0.9 : 0.3),
    Gender: { Value: rng.chance(0.5) ? 'Female' : 'Male', Confidence: round(60 + rng.next() * 40, 2) },
    Eyeglasses: trait(rng, 0.2),
    Sunglasses: trait(rng, 0.1),
    Beard: trait(rng, 0.2),
    Mustache: trait(rng, 0.15),
    EyesOpen: trait(rng, 0.85),
    MouthOpen: trait(rng, 0.4),
    Emotions: [
      { Type: main, Confidence: round(60 + rng.next() * 39, 2) },
      { Type: rng.pick(EMOTIONS), Confidence: round(rng.next() * 30, 2) },
    ],
  };
}

async function renderPhoto(rng: Rng): Promise<Photo> {
  const people = rng.int(1, 5);
  const parts: string[] = [
    `<rect width="${PHOTO_W}" height="${PHOTO_H}" fill="#2c3e57"/>`,
    // Seat rows behind the group.
    ...Array.from(
      { length: 6 },
      (_, i) => `<rect x="0" y="${90 + i * 110}" width="${PHOTO_W}" height="60" fill="#364fc7" opacity="0.55"/>`,
    ),
  ];
  const faces: UploadFace[] = [];
  const slot = PHOTO_W / (people + 1);
  for (let i = 0; i < people; i++) {
    const cx = slot * (i + 1) + rng.int(-40, 40);
    const r = rng.int(70, 105);
    const cy = rng.int(250, 330);
    parts.push(
      `<ellipse cx="${cx}" cy="${cy + r * 2.6}" rx="${r * 1.5}" ry="${r * 1.7}" fill="${rng.pick(SHIRTS)}"/>`,
      `<circle cx="${cx}" cy="${cy}" r="${r}" fill="${rng.pick(SKIN)}"/>`,
      `<circle cx="${cx - r * 0.35}" cy="${cy - r * 0.15}" r="${r * 0.1}" fill="#212529"/>`,
      `<circle cx="${cx + r * 0.35}" cy="${cy - r * 0.15}" r="${r * 0.1}" fill="#212529"/>`,
      `<path d="M${cx - r * 0.4} ${cy + r * 0.35} Q${cx} ${cy + r * 0.7} ${cx + r * 0.4} ${cy + r * 0.35}" stroke="#212529" stroke-width="${r * 0.08}" fill="none"/>`,
    );
    faces.push(
      face(rng, {
        Left: (cx - r) / PHOTO_W,
        Top: (cy - r) / PHOTO_H,
        Width: (2 * r) / PHOTO_W,
        Height: (2 * r) / PHOTO_H,
      }),
    );
  }
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${PHOTO_W}" height="${PHOTO_H}">${parts.join('')}</svg>`;
  // Some photos find nobody, as a real vision service sometimes does.
  const jpeg = await sharp(Buffer.from(svg)).jpeg({ quality: 82 }).toBuffer();
  return { jpeg, faces: rng.chance(0.1) ? [] : faces };
}

/** A fixed pool per seed, rendered on first use. */
export class PhotoPool {
  private readonly pool: Promise<Photo>[] = [];
  constructor(private readonly rng: Rng) {}

  take(): Promise<Photo> {
    const i = Math.floor(this.rng.next() * POOL_SIZE);
    while (this.pool.length <= i) this.pool.push(renderPhoto(this.rng.fork(this.pool.length)));
    return this.pool[i];
  }
}
