import { z } from 'zod';
import { defineRoute } from './route.ts';
import { P } from './permissions.ts';
import { NOTIFICATIONS_PAGE_SIZE } from './constants.ts';

/** One seat record of a suspicious user (spec 3 §2.5): the photo id and where and when it was taken. */
export const SeatRecordSchema = z.object({
  _id: z.string(),
  section: z.string(),
  row: z.string(),
  seat: z.string(),
  /** ISO time of the photo. */
  time: z.string(),
});
export type SeatRecord = z.infer<typeof SeatRecordSchema>;

export const SuspiciousUserDataSchema = z.object({
  userId: z.string(),
  snapshotsTaken: z.number().int(),
  distinctSRS: z.number().int(),
  allSRS: z.array(SeatRecordSchema),
});
export type SuspiciousUserData = z.infer<typeof SuspiciousUserDataSchema>;

/** spec 1 §3 / spec 3 §3 Notification. */
export const NotificationSchema = z.object({
  _id: z.string(),
  slugDate: z.string(),
  type: z.literal('suspiciousUser'),
  addressed: z.boolean(),
  /** ISO time the notification was raised. */
  date: z.string(),
  data: SuspiciousUserDataSchema,
});
export type Notification = z.infer<typeof NotificationSchema>;

export const notificationsRoutes = {
  /** Newest first; a page shorter than `limit` means no more (spec 3 §9). */
  list: defineRoute({
    method: 'GET',
    path: '/api/notifications/suspiciousUser',
    permission: P.MONITOR_READ,
    query: z.object({
      slugDate: z.string().min(1).max(200),
      offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
      limit: z.coerce.number().int().min(1).max(NOTIFICATIONS_PAGE_SIZE).default(NOTIFICATIONS_PAGE_SIZE),
    }),
    response: z.array(NotificationSchema),
  }),
  /** Notifications not yet addressed (the monitor's badge). */
  count: defineRoute({
    method: 'GET',
    path: '/api/notifications/suspiciousUser/count',
    permission: P.MONITOR_READ,
    query: z.object({ slugDate: z.string().min(1).max(200) }),
    response: z.object({ total: z.number().int() }),
  }),
  dismiss: defineRoute({
    method: 'PATCH',
    audit: 'notification.dismiss',
    path: '/api/notifications/:id/dismiss',
    permission: P.MONITOR_READ,
    params: z.object({ id: z.string().max(100) }),
    response: NotificationSchema,
  }),
};
