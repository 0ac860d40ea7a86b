import { MSG } from '@stadiumcam/contract';

/**
 * The album's and lightbox's texts (spec 1 §2, §5, §8): the contract's where the server uses
 * them too, the rest only the console shows.
 */
export const ALBUM_MSG = {
  selectEvent: MSG.selectEvent,
  noMedia: MSG.noMedia,
  fetchFailed: MSG.fetchMediaFailed,
  statsFailed: MSG.albumStatsFailed,
  filterOptionsFailed: MSG.filterOptionsFailed,
  emailSent: MSG.emailSent,
  emailFailed: MSG.emailFailed,
  deleted: MSG.snapshotDeleted,
  deleteManyTitle: MSG.deletePhotosConfirm,
  deleteOneTitle: MSG.deletePhotoConfirm,
  deleteText: MSG.deleteIrreversible,
  banUserWarning: MSG.banUserWarning,
  banPhotoWarning: MSG.banPhotoWarning,
  userNoPhotos: MSG.userHasNoPhotos,
  snapshotLoadFailed: MSG.snapshotLoadFailed,
  exifFailed: 'Sorry Something Went Wrong',
  noData: 'No data to display',
  copied: 'Copied!',
} as const;

export const sharedTimes = (n: number) => `Shared ${n} time(s)`;
