/** The mapping area's public face: what other areas and the app may use of it (the rest is its own). */
export { registerMapping } from './mapping.module.ts';
export { cameraForSeat } from './queue-routing.ts';
export { mapRows, mapSeats, mapSections } from './seat-index.ts';
