/** Business constants (spec 1 §9, spec 2 §9, spec 3 §9). */
export const DEFAULT_SLUG = 'stadiumcam';
export const DEFAULT_TIMEZONE = 'America/Winnipeg';
export const DEFAULT_CAMERA = 'cam1';
export const EVENT_STATUSES = ['pre', 'live', 'post'] as const;
export type EventStatus = (typeof EVENT_STATUSES)[number];

export const ALBUM_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 100;
/** Rows in one event users CSV; a larger export asks for a narrower filter. */
export const EVENT_USERS_EXPORT_MAX = 20_000;
export const MONITOR_SIDEBAR_PAGE_SIZE = 30;
export const NOTIFICATIONS_PAGE_SIZE = 20;
export const EVENT_USERS_PAGE_SIZE = 50;

export const LIVESTREAM_IDLE_MS = 15_000;
export const SNAPSHOT_BUSY_COUNT = 3;
/** Take photo ends its busy state after this at the latest (DESIGN §6). */
export const SNAPSHOT_BUSY_FALLBACK_MS = 10_000;
export const CAMERA_POWER_TIMEOUT_MS = 120_000;
export const BIG_BLOCK_ROTATE_MS = 30_000;
export const FOCUS_ANIMATION_MS = 4_000;
export const SUCCESS_MODAL_MS = 1_500;
export const LONG_SUCCESS_MODAL_MS = 5_000;
export const COPIED_MS = 1_500;
export const TOAST_MS = 5_000;
export const TOAST_LIMIT = 3;
/** A toast takes this long to leave (spec: 0.4 s exit). */
export const TOAST_EXIT_MS = 400;
/** The monitor's toast for a shared photo, and for a MagicShot that arrived (spec 1 §9). */
export const SHARE_TOAST_MS = 5_000;
export const MAGICSHOT_TOAST_MS = 3_000;

export const EVENT_MIN_MINUTES = 5;
export const EVENT_MAX_MINUTES = 24 * 60;
export const EVENT_TIME_STEP_MINUTES = 15;

export const FACE_CONFIDENCE_THRESHOLD = 60;
export const EXIF_READ_BYTES = 100_000;
export const SHARE_SOURCES = ['Download', 'Email', 'print', 'Share'] as const;
export type ShareSource = (typeof SHARE_SOURCES)[number];
export const MEDIA_TYPES = ['image', 'video/mp4'] as const;

export const PASSWORD_MIN_LENGTH = 6;
export const USERNAME_MIN_LENGTH = 6;
export const USERNAME_MAX_LENGTH = 64;
export const LOGIN_MAX_FAILURES = 5;
/** Per client address: a control room shares one NAT address, so far above one operator's typos. */
export const LOGIN_ADDRESS_MAX_FAILURES = 50;
/** 'snooze user' holds an attendee back in the queue this long (spec 1 §7 gives no figure). */
export const SNOOZE_MINUTES = 2;
export const LOGIN_WINDOW_MS = 5 * 60_000;
export const RESET_TOKEN_TTL_MS = 30 * 60_000;
export const SESSION_TTL_MS = 7 * 24 * 60 * 60_000;

export const PROMO_TYPES = [
  'N/A',
  'live announcement read',
  'pre-recorded announcement read',
  'URL banner with live fans',
  'promotion video on video board',
  'static image on video board',
  'LED boards',
] as const;
