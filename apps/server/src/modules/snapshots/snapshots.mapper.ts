import type { ShareRecord, Snapshot } from '@stadiumcam/contract';
import type { SnapshotRow } from './snapshots.repository.ts';

/** Table row → the API's Snapshot (field names of the spec). */
export function toSnapshot(r: SnapshotRow): Snapshot {
  return {
    _id: r.id,
    slug: r.slug,
    slugDate: r.slugDate,
    userId: r.userId,
    camera: r.camera,
    seatType: r.seatType,
    section: r.section,
    row: r.row,
    seat: r.seat,
    date: r.date.toISOString(),
    thumbURI: r.thumbUri,
    smallURI: r.smallUri,
    rawCroppedURI: r.rawCroppedUri,
    sharedURI: r.sharedUri,
    mediaType: r.mediaType,
    favorite: r.favorite,
    hidden: r.hidden,
    magicshot: r.magicshot,
    overlay: r.overlay,
    postObj: r.postObj as ShareRecord[],
  };
}

/**
 * The photo without the attendees' e-mail addresses (docs/security.md §6): for anyone without
 * EventUsers:read, and for socket pushes, which go to every console in the event's room (the
 * event users page refetches over REST, where the permission is checked).
 */
export function withoutContacts(s: Snapshot): Snapshot {
  return { ...s, postObj: s.postObj.map(({ userEmail: _hidden, ...rest }) => rest) };
}
