import type { PublicSnapshot } from './api.ts';

/**
 * Preview mode (`?preview=1`): the colours page shows these real screens in phone frames with
 * the operator's unsaved colours, sent by the parent console page (same origin) as messages.
 * Screens that need a fan's photo get a sample one; nothing is sent to the server.
 */
// `typeof location`: the texts' unit tests load this module in Node, where there is no page.
export const isPreview = typeof location !== 'undefined' && new URLSearchParams(location.search).has('preview');

const SAMPLE_SVG =
  "<svg xmlns='http://www.w3.org/2000/svg' width='800' height='600'><defs><linearGradient id='g' x2='0' y2='1'><stop offset='0' stop-color='%2387b5e5'/><stop offset='1' stop-color='%232d5f8f'/></linearGradient></defs><rect width='800' height='600' fill='url(%23g)'/><g fill='%23f1c27d'><circle cx='300' cy='300' r='80'/><circle cx='500' cy='310' r='75'/></g><rect y='430' width='800' height='170' fill='%231b3550'/></svg>";
const SAMPLE = `data:image/svg+xml;utf8,${SAMPLE_SVG}`;

export const SAMPLE_PHOTO: PublicSnapshot = {
  _id: 'preview',
  slugDate: 'preview',
  camera: 'cam1',
  section: '104',
  row: 'F',
  seat: '12',
  date: new Date(0).toISOString(),
  thumbURI: SAMPLE,
  smallURI: SAMPLE,
  rawCroppedURI: SAMPLE,
  sharedURI: SAMPLE,
  overlay: null,
  magicshot: false,
};

export type PreviewMessage = {
  type: 'stadiumcam:colors';
  theme: Record<string, string>;
  iconColor: Record<string, string>;
};
