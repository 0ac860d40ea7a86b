import { z } from 'zod';
import { SHARE_SOURCES } from './constants.ts';

/** One share action of an attendee (spec 1 §3 postObj). */
export const ShareRecordSchema = z.object({
  socialSource: z.enum(SHARE_SOURCES),
  imgURL: z.string(),
  date: z.string(),
  userEmail: z.string().optional(),
});
export type ShareRecord = z.infer<typeof ShareRecordSchema>;

/** A photo as the console sees it (spec 1 §3 Snapshot). */
export const SnapshotSchema = z.object({
  _id: z.string(),
  slug: z.string(),
  slugDate: z.string(),
  userId: z.string(),
  camera: z.string(),
  seatType: z.string(),
  section: z.string(),
  row: z.string(),
  seat: z.string(),
  date: z.string(),
  thumbURI: z.string(),
  smallURI: z.string(),
  rawCroppedURI: z.string(),
  sharedURI: z.string(),
  mediaType: z.string(),
  favorite: z.boolean(),
  hidden: z.boolean(),
  magicshot: z.boolean(),
  overlay: z.string().nullable(),
  postObj: z.array(ShareRecordSchema),
});
export type Snapshot = z.infer<typeof SnapshotSchema>;

/** Live metrics of an event (spec 1 §3). */
export const LiveMetricsSchema = z.object({
  current: z.number().int(),
  peak: z.number().int(),
  snapshots: z.number().int(),
  shares: z.number().int(),
});
export type LiveMetrics = z.infer<typeof LiveMetricsSchema>;
