import type { Ptz } from '@stadiumcam/camera-host';

/*
 * The seat map speaks PTU counts (pan and tilt within ±1e9, zoom 0..1: docs/mapping.md); an
 * ONVIF camera speaks its normalised spaces (AbsolutePanTiltPositionSpace, usually x and y in
 * −1..1, and AbsoluteZoomPositionSpace, usually 0..1). A camera's `Space` says which seat-map
 * range is the camera's whole range, axis by axis; the conversion is linear and exact both ways
 * (up to the rounding of pan and tilt to whole counts).
 */
export type Range = [number, number];
export type Axis = { units: Range; camera: Range };
export type Space = { pan: Axis; tilt: Axis; zoom: Axis };

/** What the seat map's units cover when the config gives no ranges: the whole ±1e9, zoom 0..1. */
export const DEFAULT_UNITS = { pan: [-1e9, 1e9], tilt: [-1e9, 1e9], zoom: [0, 1] } satisfies Record<string, Range>;
/** ONVIF's generic spaces, when the camera reports none. */
export const GENERIC_CAMERA = { pan: [-1, 1], tilt: [-1, 1], zoom: [0, 1] } satisfies Record<string, Range>;

const lerp = (v: number, from: Range, to: Range) => to[0] + ((v - from[0]) / (from[1] - from[0])) * (to[1] - to[0]);
const clamp = (v: number, r: Range) => Math.min(Math.max(r[0], r[1]), Math.max(Math.min(r[0], r[1]), v));

/** Seat-map units → the camera's normalised position (clamped to the camera's range). */
export function toCamera(space: Space, p: Ptz): { x: number; y: number; zoom: number } {
  const axis = (v: number, a: Axis) => clamp(lerp(v, a.units, a.camera), a.camera);
  return { x: axis(p.pan, space.pan), y: axis(p.tilt, space.tilt), zoom: axis(p.zoom, space.zoom) };
}

/** The camera's normalised position → seat-map units. */
export function fromCamera(space: Space, c: { x: number; y: number; zoom: number }): Ptz {
  return {
    pan: Math.round(lerp(c.x, space.pan.camera, space.pan.units)),
    tilt: Math.round(lerp(c.y, space.tilt.camera, space.tilt.units)),
    zoom: Math.round(lerp(c.zoom, space.zoom.camera, space.zoom.units) * 1000) / 1000,
  };
}

/** A relative step in seat-map units → the camera's translation (scale only, no offset). */
export function stepToCamera(space: Space, d: Ptz): { x: number; y: number; zoom: number } {
  const scale = (v: number, a: Axis) => (v * (a.camera[1] - a.camera[0])) / (a.units[1] - a.units[0]);
  return { x: scale(d.pan, space.pan), y: scale(d.tilt, space.tilt), zoom: scale(d.zoom, space.zoom) };
}
