/** The album's and lightbox's texts, exactly as spec 1 §2, §5 and §8 give them. */
export const ALBUM_MSG = {
  selectEvent: 'Please select an event.',
  noMedia: 'No media available.',
  fetchFailed: 'Error fetching media.',
  statsFailed: 'Error loading album data.',
  filterOptionsFailed: 'Error loading filter options',
  emailSent: 'Email is sent.',
  emailFailed: 'Error sending email. Please try again.',
  deleted: 'Snapshot is deleted',
  deleteManyTitle: 'Are you sure you want to delete these photos?',
  deleteOneTitle: 'Are you sure you want to delete this photo?',
  deleteText: 'You will not be able to recover this snapshot!',
  banUserWarning: 'Banning a user will ban all their photos',
  banPhotoWarning: 'Banning a photo will change the URL of that photo and remove it from social media',
  userNoPhotos: 'User has no photos.',
  snapshotLoadFailed: "Something went wrong. We couldn't load the snapshot. Please try again",
  exifFailed: 'Sorry Something Went Wrong',
  noData: 'No data to display',
  copied: 'Copied!',
} as const;

export const sharedTimes = (n: number) => `Shared ${n} time(s)`;
