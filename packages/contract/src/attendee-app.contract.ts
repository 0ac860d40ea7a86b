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
  /**
   * The seat form's choices from the venue's seat map (DESIGN §11): sections of a seat type, rows
   * of a section (row dictionary order) or seats of a row, as the fan fills the form in. Empty
   * when the venue has no seat map yet; the queue join still decides.
   */
  seats: defineRoute({
    method: 'GET',
    path: '/api/public/seats',
    public: true,
    query: z.object({
      seatType: z.string().trim().min(1).max(40),
      section: z.string().trim().min(1).max(40).optional(),
      row: z.string().trim().min(1).max(40).optional(),
    }),
    response: z.object({ options: z.array(z.string()) }),
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
