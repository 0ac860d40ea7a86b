/** The snapshots area's public face: what other areas and the app may use of it (the rest is its own). */
export { registerSnapshots } from './snapshots.module.ts';
export { banUser } from './moderation.service.ts';
export { eventText, photoEmail } from './photo-email.service.ts';
export { PageAnchors } from './snapshots.anchors.ts';
export { toSnapshot, withoutContacts } from './snapshots.mapper.ts';
export { insertSnapshot, rowsOf, type SnapshotRow } from './snapshots.repository.ts';
export { sweepOrphans } from './snapshots.service.ts';
