import sharp from 'sharp';
import type { Seat } from '@stadiumcam/contract';
import { createRng } from './rng.ts';

/*
 * The seat bowl: one panorama every camera looks at. Two tiers of sections (100s below,
 * 200s above), rows A.. from the field up, seats 1.. left to right. A camera's pan and tilt
 * are panorama pixels times UNITS_PER_PX (PTU counts), zoom 0..1 narrows the view.
 */
export const PANO_W = 3200;
export const PANO_H = 1200;
export const UNITS_PER_PX = 500_000;
export const FRAME_W = 640;
export const FRAME_H = 360;
/** View width at zoom 0 and at zoom 1 (panorama pixels, 16:9). */
const VIEW_W_WIDE = 1600;
const VIEW_W_TIGHT = 120;

const SECTIONS_PER_TIER = 16;
const ROWS = 12;
const SEATS = 20;
const CELL_W = 9;
const CELL_H = 12;
const GAP = 16;
const MARGIN_X = (PANO_W - SECTIONS_PER_TIER * (SEATS * CELL_W + GAP) + GAP) / 2;
const TIER_Y = { 1: 740, 2: 330 } as const;
export const ROW_LETTERS = 'ABCDEFGHJKLM'.split('');

export type SeatRef = { seatType: string; section: string; row: string; seat: string };

/** Every seat's section name in tier order. */
export const SECTIONS = [1, 2].flatMap((tier) =>
  Array.from({ length: SECTIONS_PER_TIER }, (_, i) => `${tier}${String(i + 1).padStart(2, '0')}`),
);

export function randomSeat(next: () => number): Seat {
  return {
    seatType: 'section',
    section: SECTIONS[Math.floor(next() * SECTIONS.length)],
    row: ROW_LETTERS[Math.floor(next() * ROWS)],
    seat: String(1 + Math.floor(next() * SEATS)),
  };
}

/** Centre of a seat in panorama pixels; null for a seat that is not in this bowl. */
export function seatPixel(seat: { section: string; row: string; seat: string }): { x: number; y: number } | null {
  const tier = Number(seat.section[0]) as 1 | 2;
  const idx = Number(seat.section.slice(1)) - 1;
  const r = ROW_LETTERS.indexOf(seat.row.toUpperCase());
  const s = Number(seat.seat) - 1;
  if (!(tier in TIER_Y) || !(idx >= 0 && idx < SECTIONS_PER_TIER) || r < 0 || !(s >= 0 && s < SEATS)) return null;
  const x0 = MARGIN_X + idx * (SEATS * CELL_W + GAP);
  // Row A is the lowest (nearest the field).
  const y0 = TIER_Y[tier] + (ROWS - 1 - r) * CELL_H;
  return { x: x0 + s * CELL_W + CELL_W / 2, y: y0 + CELL_H / 2 };
}

export type View = { pan: number; tilt: number; zoom: number };

/** The PTZ that centres a seat, zoomed in. */
export function viewOfSeat(seat: { section: string; row: string; seat: string }, zoom = 0.8): View | null {
  const p = seatPixel(seat);
  if (!p) return null;
  return {
    pan: Math.round((p.x - PANO_W / 2) * UNITS_PER_PX),
    tilt: Math.round((PANO_H / 2 - p.y) * UNITS_PER_PX),
    zoom,
  };
}

export const PAN_LIMIT = (PANO_W / 2) * UNITS_PER_PX;
export const TILT_LIMIT = (PANO_H / 2) * UNITS_PER_PX;

/** The panorama rectangle a view shows (clamped inside the panorama). */
export function viewRect(v: View): { left: number; top: number; width: number; height: number } {
  const width = Math.round(VIEW_W_WIDE - (VIEW_W_WIDE - VIEW_W_TIGHT) * Math.min(1, Math.max(0, v.zoom)));
  const height = Math.round((width * 9) / 16);
  const cx = PANO_W / 2 + v.pan / UNITS_PER_PX;
  const cy = PANO_H / 2 - v.tilt / UNITS_PER_PX;
  const left = Math.round(Math.min(PANO_W - width, Math.max(0, cx - width / 2)));
  const top = Math.round(Math.min(PANO_H - height, Math.max(0, cy - height / 2)));
  return { left, top, width, height };
}

/** What the monitor draws: magnification and the view centre as fractions of the bowl. */
export function panAndZoomOf(v: View): { scale: number; posX: number; posY: number } {
  const r = viewRect(v);
  const round = (n: number) => Math.round(n * 1000) / 1000;
  return {
    scale: round(VIEW_W_WIDE / r.width),
    posX: round((r.left + r.width / 2) / PANO_W),
    posY: round((r.top + r.height / 2) / PANO_H),
  };
}

const SHIRTS = ['#e03131', '#1971c2', '#f8f9fa', '#fcc419', '#2f9e44', '#212529', '#e8590c', '#ae3ec9'];

function panoramaSvg(): string {
  const rng = createRng(20240601);
  const parts: string[] = [
    `<rect width="${PANO_W}" height="${PANO_H}" fill="#1b2433"/>`,
    `<rect y="0" width="${PANO_W}" height="230" fill="#0d1320"/>`,
    `<rect y="1000" width="${PANO_W}" height="200" fill="#2b8a3e"/>`,
    `<rect y="990" width="${PANO_W}" height="10" fill="#f1f3f5"/>`,
  ];
  for (const [t, y] of Object.entries(TIER_Y)) {
    for (let i = 0; i < SECTIONS_PER_TIER; i++) {
      const x0 = MARGIN_X + i * (SEATS * CELL_W + GAP);
      parts.push(
        `<rect x="${x0 - 3}" y="${y - 3}" width="${SEATS * CELL_W + 6}" height="${ROWS * CELL_H + 6}" fill="#343a40"/>`,
      );
      // Occupied seats: a "shirt" and a head; empty ones show the blue seat.
      for (let r = 0; r < ROWS; r++) {
        for (let s = 0; s < SEATS; s++) {
          const x = x0 + s * CELL_W;
          const yy = y + r * CELL_H;
          if (rng.chance(0.78)) {
            parts.push(`<rect x="${x + 1}" y="${yy + 5}" width="7" height="7" fill="${rng.pick(SHIRTS)}"/>`);
            parts.push(`<circle cx="${x + 4.5}" cy="${yy + 3}" r="2.5" fill="#e9c7a5"/>`);
          } else {
            parts.push(`<rect x="${x + 1}" y="${yy + 3}" width="7" height="9" fill="#364fc7"/>`);
          }
        }
      }
      parts.push(
        `<text x="${x0 + (SEATS * CELL_W) / 2}" y="${y - 12}" font-family="DejaVu Sans, sans-serif" font-size="22" font-weight="bold" fill="#ced4da" text-anchor="middle">${t}${String(i + 1).padStart(2, '0')}</text>`,
      );
    }
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${PANO_W}" height="${PANO_H}">${parts.join('')}</svg>`;
}

let panorama: Promise<Buffer> | undefined;

/** The bowl as raw RGB, rendered once per process and shared by every camera. */
export function panoramaRaw(): Promise<Buffer> {
  panorama ??= sharp(Buffer.from(panoramaSvg())).removeAlpha().raw().toBuffer();
  return panorama;
}

const escapeXml = (s: string) => s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * One camera frame: the view of the bowl with the photographed seat ringed and a small
 * label. Cheap: an extract + resize of the cached raw panorama and a tiny SVG layer.
 */
export async function renderFrame(
  v: View,
  opts: {
    camera: string;
    target: SeatRef | null;
    label: string;
    width?: number;
    height?: number;
    quality?: number;
    /** Exposure: 1 = as rendered. */
    brightness?: number;
  },
): Promise<Buffer> {
  const width = opts.width ?? FRAME_W;
  const height = opts.height ?? FRAME_H;
  const rect = viewRect(v);
  const k = width / rect.width;
  const layer: string[] = [];
  const p = opts.target ? seatPixel(opts.target) : null;
  if (p && p.x >= rect.left && p.x <= rect.left + rect.width && p.y >= rect.top && p.y <= rect.top + rect.height) {
    const cx = (p.x - rect.left) * k;
    const cy = (p.y - rect.top) * k;
    const r = Math.max(8, CELL_W * k * 0.9);
    layer.push(`<circle cx="${cx}" cy="${cy}" r="${r}" fill="none" stroke="#ffd43b" stroke-width="4"/>`);
  }
  layer.push(`<rect x="0" y="0" width="${width}" height="26" fill="#000" fill-opacity="0.5"/>`);
  layer.push(
    `<text x="8" y="18" font-family="DejaVu Sans, sans-serif" font-size="15" fill="#fff">${escapeXml(`${opts.camera}  ${opts.label}`)}</text>`,
  );
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${layer.join('')}</svg>`;
  return sharp(await panoramaRaw(), { raw: { width: PANO_W, height: PANO_H, channels: 3 } })
    .extract(rect)
    .resize(width, height, { kernel: 'linear' })
    .linear(opts.brightness ?? 1, 0)
    .composite([{ input: Buffer.from(svg) }])
    .jpeg({ quality: opts.quality ?? 50 })
    .toBuffer();
}
