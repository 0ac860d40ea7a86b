import { z } from 'zod';
import { defineRoute } from './route.ts';
import { MSG } from './messages.ts';

/*
 * The attendee app's own calls under /api/public, beside the attendee path of
 * devices.contract.ts (docs/protocol.md §3, docs/attendee-app.md).
 */

const UserId = z.string().trim().min(1).max(200);

export const ATTENDEE_APP_MSG = MSG.attendeeApp;

export const attendeeAppRoutes = {
  /**
   * Server-sent events: `event: template` with the event's PublicTemplate after every save of a
   * configuration part; a comment line every 25 s keeps proxies from closing it.
   */
  stream: defineRoute({
    method: 'GET',
    path: '/api/public/event/stream',
    public: true,
    query: z.object({ slugDate: z.string().min(1).max(200) }),
    response: null,
  }),
  /** Where the fan is in the camera queues now (camera null: in no queue). */
  queuePosition: defineRoute({
    method: 'GET',
    path: '/api/public/queue/position',
    public: true,
    query: z.object({ userId: UserId }),
    response: z.object({ camera: z.string().nullable(), position: z.number().int() }),
  }),
  /** The photo e-mail to the fan (the event's e-mail colours and header); recorded as an Email share. */
  email: defineRoute({
    method: 'POST',
    path: '/api/public/snapshots/:id/email',
    public: true,
    params: z.object({ id: z.string().max(100) }),
    body: z.strictObject({
      userId: UserId,
      userEmail: z.email().max(320),
      /** The app's language: the e-mail's texts follow it. */
      language: z.string().max(40).optional(),
    }),
    response: z.object({ ok: z.literal(true) }),
  }),
};
